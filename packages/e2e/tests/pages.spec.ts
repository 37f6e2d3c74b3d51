import type { Page } from '@playwright/test';
import { watchCspViolations } from '../src/csp-watch';
import { expect } from '../src/fixtures';
import { expectNoAxeViolations, screenshot, settle, smallTapTargets } from '../src/page-check';
import { routePageTest as test } from '../src/route-page-test';
import { openRoutePage, ROUTE_PAGES } from '../src/route-pages';

/** Phone widths every page must fit: nothing scrolls sideways. */
const PHONE_WIDTHS = [375, 320];

async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `page width at ${width} px`).toBeLessThanOrEqual(innerWidth);
}

for (const pageCase of ROUTE_PAGES) {
  // One opening of the page for every check of it: on phones, the page's fit and tap targets are
  // measured after axe, on the same settled page (they once opened it a second time).
  test(`${pageCase.name}: no axe violation, no Content-Security-Policy violation; on a phone, fits and every tap target at least 44 px`, async ({
    page,
    data,
  }, testInfo) => {
    const cspViolations = await watchCspViolations(page);
    await openRoutePage(page, pageCase, data);
    await settle(page, pageCase.ready, pageCase);
    await pageCase.then?.(page);
    await screenshot(page, testInfo, pageCase.name);
    await expectNoAxeViolations(page);
    // Images of the page (covers, the avatar) have loaded or failed by now.
    await page.waitForLoadState('load');
    expect(await cspViolations(), 'Content-Security-Policy violations').toEqual([]);
    // Phone sizes are checked in the phone project.
    if (testInfo.project.name !== 'phone') return;
    for (const width of PHONE_WIDTHS) await expectNoSidewaysScroll(page, width);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await smallTapTargets(page)).toEqual([]);
  });
}
