import type { Page } from '@playwright/test';
import { expectAccessibleBeyondAxe } from '../src/accessibility-checks';
import { watchCspViolations } from '../src/csp-watch';
import { overflowAtEveryWidth } from '../src/extreme-text';
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
  // One opening of the page for every check of it, its data the students' text at its extremes
  // (route-page-test.ts): axe and the Content-Security-Policy in both projects; then on a laptop
  // the checks axe cannot make (they had a file and an opening of their own, accessibility.spec.ts,
  // until 2026-12-04) and the long text's fit at every width and text size (content-extremes.spec.ts's
  // until 2026-12-05), on a phone the page's fit and tap targets.
  test(`${pageCase.name}: no axe violation, no Content-Security-Policy violation; on a laptop, named controls, visible focus, 200 % text, text spacing, reduced motion, and long words, long names, emoji and right-to-left text fit at 320, 375 and 1280 px, at 200 % text too; on a phone, fits and every tap target at least 44 px`, async ({
    page,
    data,
  }, testInfo) => {
    const phone = testInfo.project.name === 'phone';
    // The motion check needs it from the start; the phone's axe sees the page with its motion.
    if (!phone) await page.emulateMedia({ reducedMotion: 'reduce' });
    const cspViolations = await watchCspViolations(page);
    await openRoutePage(page, pageCase, data);
    await settle(page, pageCase.ready, pageCase);
    await pageCase.then?.(page);
    await screenshot(page, testInfo, pageCase.name);
    await expectNoAxeViolations(page);
    // Images of the page (covers, the avatar) have loaded or failed by now.
    await page.waitForLoadState('load');
    expect(await cspViolations(), 'Content-Security-Policy violations').toEqual([]);
    if (!phone) {
      await expectAccessibleBeyondAxe(page);
      const problems = await overflowAtEveryWidth(page, testInfo, pageCase.name);
      expect(problems, problems.join('\n')).toEqual([]);
      return;
    }
    for (const width of PHONE_WIDTHS) await expectNoSidewaysScroll(page, width);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await smallTapTargets(page)).toEqual([]);
  });
}
