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
