import type { Page, TestInfo } from '@playwright/test';
import { screenshot } from './page-check';

/**
 * Text a student typed, at its extremes: a word as long as a field takes, a 170-character link,
 * emoji, right-to-left scripts. The route table's pages are seeded with it (route-page-test.ts),
 * and every page must wrap it at the narrowest phone, a common phone and a laptop, at the browser's
 * text size and at 200 %: nothing scrolls sideways, nothing reaches past the screen's edges.
 */
export const EXTREME_WIDTHS = [320, 375, 1280] as const;
const TEXT_SIZES = ['100%', '200%'] as const;

export const word = (length: number) =>
  'Unbreakable'.repeat(Math.ceil(length / 11)).slice(0, length);
export const LONG_URL =
  `https://drive.example.edu/notes/${'chapter-three-highlights-and-margin-notes-'.repeat(4)}`.slice(
    0,
    170,
  );
export const EMOJI = '📚🎓👩🏽‍🎓🧑‍🤝‍🧑';
export const RTL = 'مرحبا بالعالم שלום עולם';
/** A sentence of every kind at once, ending in a long word. */
export const mixed = (length: number) => {
  const start = `${LONG_URL} ${EMOJI} ${RTL} `;
  return `${start}${word(length - start.length)}`;
};
export const longName = (first: string) => `${first}${word(60)} ${EMOJI} محمد שלום`;

/** After a resize or a new text size: React's media-query hooks re-render, then layout settles. */
const nextFrames = (page: Page) =>
  page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );

/**
 * What reaches past the screen: the page's own width, and each visible element whose box leaves
 * [0, innerWidth] (the innermost ones, so the message names what to fix). What a scroller or a
 * clipping box of its own holds is judged by that box.
 */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const found: string[] = [];
    const pageWidth = document.documentElement.scrollWidth;
    if (pageWidth > width) found.push(`the page is ${pageWidth} px wide`);
    // Inside a box that scrolls or clips and itself fits, an element is that box's business.
    const contained = (element: Element) => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX === 'visible') continue;
        const box = up.getBoundingClientRect();
        if (box.left >= -1 && box.right <= width + 1) return true;
      }
      return false;
    };
    const describe = (element: Element) => {
      const id = element.id ? `#${element.id}` : '';
      const testId = element.getAttribute('data-testid');
      const classes = [...element.classList].slice(0, 6).join('.');
      const text = (element.textContent ?? '').trim().slice(0, 24);
      return `${element.tagName.toLowerCase()}${id}${testId ? `[data-testid=${testId}]` : ''}${classes ? `.${classes}` : ''} "${text}"`;
    };
    const wide = [...document.querySelectorAll('body *')].filter((element) => {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return false;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.clipPath.startsWith('inset(50%')) return false;
      if (style.clip.startsWith('rect(0')) return false;
      return (box.left < -1 || box.right > width + 1) && !contained(element);
    });
    for (const element of wide) {
      if (wide.some((other) => other !== element && element.contains(other))) continue;
      const box = element.getBoundingClientRect();
      found.push(`${describe(element)} spans ${Math.round(box.left)}…${Math.round(box.right)}`);
    }
    return found.slice(0, 12);
  });
}

/**
 * The settled page at 320, 375 and 1280 px, with the text at its usual size and at 200 %: what
 * reaches past the screen at each, as messages (none when it all fits). A screenshot at 320 px of
 * each text size (`extremes-<name>-<size>`). It leaves the page at 1280 px with 200 % text.
 */
export async function overflowAtEveryWidth(
  page: Page,
  testInfo: TestInfo,
  name: string,
): Promise<string[]> {
  const problems: string[] = [];
  for (const textSize of TEXT_SIZES) {
    await page.evaluate((size) => {
      document.documentElement.style.fontSize = size;
    }, textSize);
    for (const width of EXTREME_WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await nextFrames(page);
      if (width === 320) await screenshot(page, testInfo, `extremes-${name}-${textSize}`);
      // A busy machine may measure a frame before the new width's styles reach every box (seen
      // once: the header's name laid out as at 1280 px, at 320): what still reaches past the
      // screen once the fonts are in and two more frames have passed is what counts.
      let found = await overflowing(page);
      if (found.length > 0) {
        await page.evaluate(() => document.fonts.ready.then(() => undefined));
        await nextFrames(page);
        found = await overflowing(page);
      }
      for (const problem of found) {
        problems.push(`${width} px, text ${textSize}: ${problem}`);
      }
    }
  }
  return problems;
}
