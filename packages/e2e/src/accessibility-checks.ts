import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import {
  clippedUnderTextSpacing,
  invisibleFocusStops,
  lowContrastControlBorders,
  movingElements,
  namedControlCount,
  removeTextSpacing,
  unnamedControls,
  widerThanViewport,
} from './page-check';

/**
 * The checks behind docs/accessibility.md that axe cannot make, on a settled page opened with
 * `prefers-reduced-motion: reduce`: a title and language of its own and a skip link, names in
 * Chromium's accessibility tree, field borders, motion, focus that can be seen, 200 % text, WCAG text
 * spacing (also at 320 px). It leaves the page at 320 px with the text at its usual size and
 * spacing.
 */
export async function expectAccessibleBeyondAxe(page: Page): Promise<void> {
  // A title of its own (2.4.2), the page's language (3.1.1), and a skip link first (2.4.1).
  expect(await page.title()).toMatch(/\S.* \| Campus Books$|^Campus Books$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('a[href="#main"]')).toHaveText('Skip to content');
  await expect(page.locator('#main')).toHaveCount(1);

  expect(await unnamedControls(page), 'controls without a name (4.1.2)').toEqual([]);
  expect(await namedControlCount(page)).toBeGreaterThan(0);
  expect(await lowContrastControlBorders(page), 'field borders under 3:1 (1.4.11)').toEqual([]);
  expect(await movingElements(page), 'motion left with reduced motion (2.3.3)').toEqual([]);

  const focus = await invisibleFocusStops(page);
  expect(focus.stops, 'keyboard focus reaches the page (2.1.1)').toBeGreaterThan(0);
  expect(focus.invisible, 'focus that cannot be seen (2.4.7)').toEqual([]);

  // 200 % text (1.4.4): everything rem-sized doubles; nothing scrolls sideways.
  await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
  await expect
    .poll(() => widerThanViewport(page), { message: 'wider than the window with 200 % text' })
    .toEqual([]);
  await page.evaluate(() => (document.documentElement.style.fontSize = ''));

  // Text spacing (1.4.12), at a phone's width too.
  expect(await clippedUnderTextSpacing(page), 'text clipped by text spacing').toEqual([]);
  await page.setViewportSize({ width: 320, height: 720 });
  expect(await clippedUnderTextSpacing(page), 'clipped by text spacing at 320 px').toEqual([]);
  // The layout follows the new width in a frame or two (a busy machine's React re-renders).
  await expect
    .poll(() => widerThanViewport(page), { message: 'wider than 320 px with text spacing' })
    .toEqual([]);
  await removeTextSpacing(page);
}
