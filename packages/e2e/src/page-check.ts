import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

const SCREENSHOTS = path.resolve(import.meta.dirname, '..', 'screenshots');

/** Waits until the page has settled: no 'Loading...' left and the page's own marker visible. */
export async function settle(
  page: Page,
  ready: (page: Page) => ReturnType<Page['locator']>,
  options: { showsLoading?: boolean } = {},
) {
  await expect(ready(page).first()).toBeVisible();
  if (!options.showsLoading) {
    await expect(page.getByText('Loading...', { exact: true })).toHaveCount(0);
  }
  await page.evaluate(() => document.fonts.ready);
}

/** axe over the whole page: every rule, no violation allowed; the message lists what failed. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const report = violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n${v.nodes
        .slice(0, 5)
        .map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').join(' ')}`)
        .join('\n')}`,
  );
  expect(report, report.join('\n')).toEqual([]);
}

/** screenshots/<project>/<name>.png, full page. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const dir = path.join(SCREENSHOTS, testInfo.project.name);
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true, scale: 'css' });
}

/** The smallest tap target on phones, in CSS px (WCAG 2.5.5, and Apple's and Google's guides). */
export const MIN_TAP_TARGET = 44;

/**
 * Every visible control of the page (links, buttons, fields) is at least 44 × 44 px. Exempt, as in
 * WCAG 2.5.8: links inside a sentence (inline in running text); a checkbox or radio counts with its
 * label. Returns the offenders so a test can name them.
 */
export async function smallTapTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const offenders: string[] = [];
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="tab"]';
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      if (element.closest('[aria-hidden="true"], [inert]')) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      // Visually hidden until focused (the skip link): clipped away, so nothing to tap.
      if (style.clipPath.startsWith('inset(50%') || style.clip.startsWith('rect(0')) continue;
      let target: HTMLElement = element;
      if (element instanceof HTMLInputElement && ['checkbox', 'radio'].includes(element.type)) {
        const byId = element.id
          ? document.querySelector<HTMLElement>(`label[for="${element.id}"]`)
          : null;
        target = element.closest('label') ?? byId ?? element;
      }
      const box = target.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue; // not rendered (closed menu, sr-only)
      if (box.width <= 1 && box.height <= 1) continue;
      const inSentence =
        element.tagName === 'A' &&
        style.display === 'inline' &&
        (element.parentElement?.textContent ?? '').trim().length >
          (element.textContent ?? '').trim().length;
      if (inSentence) continue;
      if (box.width < min - 0.5 || box.height < min - 0.5) {
        const name = (
          element.getAttribute('aria-label') ??
          element.textContent ??
          element.getAttribute('name') ??
          ''
        )
          .trim()
          .replace(/\s+/g, ' ')
          .slice(0, 40);
        offenders.push(
          `${element.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`,
        );
      }
    }
    return offenders;
  }, MIN_TAP_TARGET);
}
