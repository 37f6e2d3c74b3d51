import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect, signInBrowser, test } from '../src/fixtures';
import { expectTapTarget } from '../src/page-check';
import { createListing } from '../src/users';

/**
 * A partner campus's listing card (consortium sharing, issue 45), as the style guide shows it:
 * every link goes to the partner's own site, and a long campus name or one in another script fits a
 * phone's card. Then the report dialog over a listing with a long title. Screenshots of each width
 * land in screenshots/<project>/.
 */
const PARTNERS = [
  {
    name: 'Universidad Autónoma de Ciencias Aplicadas y Tecnológicas del Pacífico',
    url: 'https://libros.pacifico.example.edu',
  },
  { name: '東京工科大学', url: 'https://books.tokyo.example.jp' },
];
const WIDTHS = [320, 375, 1280];
const SCREENSHOTS = path.resolve(import.meta.dirname, '..', 'screenshots');

/** The window, or the part of the whole page `target` covers (the sticky header left at the top). */
async function shoot(
  page: Page,
  testInfo: TestInfo,
  name: string,
  target?: Locator,
): Promise<void> {
  const dir = path.join(SCREENSHOTS, testInfo.project.name);
  await mkdir(dir, { recursive: true });
  const box = await target?.evaluate((element) => {
    const { x, y, width, height } = element.getBoundingClientRect();
    const at = { x: x + window.scrollX, y: y + window.scrollY, width, height };
    // At the top, the sticky header covers the page's top, not the part shot.
    window.scrollTo(0, 0);
    return at;
  });
  await page.screenshot({
    path: path.join(dir, `${name}.png`),
    scale: 'css',
    ...(box ? { fullPage: true, clip: box } : {}),
  });
}

/** What in `card` reaches past its box, or whose text is wider than its own box. */
async function overflowing(card: Locator): Promise<string[]> {
  return card.evaluate((article) => {
    const outer = article.getBoundingClientRect();
    return [...article.querySelectorAll<HTMLElement>('*')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        if (box.width === 0) return false;
        // Visually hidden text (sr-only) is a clipped pixel, wherever it lies.
        const style = getComputedStyle(element);
        if (style.clipPath.startsWith('inset(50%') || style.clip.startsWith('rect(0')) return false;
        return (
          box.left < outer.left - 1 ||
          box.right > outer.right + 1 ||
          element.scrollWidth > element.clientWidth + 1
        );
      })
      .map((element) => `${element.tagName.toLowerCase()} "${element.textContent?.slice(0, 30)}"`);
  });
}

/**
 * The focused element's outline when it is in `cards`: at least 2 px, and all of it inside its
 * card (which clips what reaches past it). Null when the focus is elsewhere.
 */
async function focusRing(cards: Locator): Promise<string | null> {
  return cards.evaluate((list) => {
    const element = document.activeElement as HTMLElement | null;
    const article = element && list.contains(element) ? element.closest('article') : null;
    if (!element || !article) return null;
    const style = getComputedStyle(element);
    const width = parseFloat(style.outlineWidth);
    const label = element.getAttribute('aria-label') ?? element.textContent ?? '';
    if (style.outlineStyle === 'none' || width < 2) return `no outline on "${label}"`;
    const reach = width + Math.max(0, parseFloat(style.outlineOffset));
    const box = element.getBoundingClientRect();
    const outer = article.getBoundingClientRect();
    const inside =
      box.left - reach >= outer.left &&
      box.right + reach <= outer.right &&
      box.top - reach >= outer.top &&
      box.bottom + reach <= outer.bottom;
    return inside ? 'visible' : `outline of "${label}" cut by the card`;
  });
}

test("a partner campus's card links only to its own site, fits a phone and passes axe", async ({
  page,
}, testInfo) => {
  await page.goto('/component-preview');
  const cards = page.getByRole('list', { name: 'Listing cards' });
  await expect(cards.getByRole('article')).toHaveCount(3);

  await test.step("every link of a partner's card is on the partner's site", async () => {
    for (const partner of PARTNERS) {
      const card = cards.getByRole('article').filter({ hasText: partner.name });
      const hrefs = await card
        .locator('a[href]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
      // The cover, the title and the course badge.
      expect(hrefs).toHaveLength(3);
      for (const href of hrefs) {
        expect(
          href.startsWith(`${partner.url}/listing/`) || href.startsWith(`${partner.url}/course/`),
          href,
        ).toBe(true);
      }
    }
    const own = cards.getByRole('article').filter({ hasNotText: /Pacífico|東京/ });
    const ownHrefs = await own
      .locator('a[href]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    expect(ownHrefs.length).toBeGreaterThan(0);
    for (const href of ownHrefs) expect(href).toMatch(/^\/(listing|course)\//);
  });

  await test.step('no axe violation in the cards', async () => {
    const { violations } = await new AxeBuilder({ page })
      .include('ul[aria-label="Listing cards"]')
      .analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
  });

  for (const width of WIDTHS) {
    await test.step(`at ${width} px: nothing overflows, targets and focus`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await cards.scrollIntoViewIfNeeded();
      await shoot(page, testInfo, `partner-cards-${width}`, cards);
      for (const card of await cards.getByRole('article').all()) {
        expect(await overflowing(card), `overflow at ${width} px`).toEqual([]);
        if (width < 768) {
          for (const link of await card.locator('a[href]').all()) {
            const name = (await link.getAttribute('aria-label')) ?? (await link.textContent());
            await expectTapTarget(link, { width: true, label: `${name} at ${width} px` });
          }
        }
      }
      // By keyboard, from the heading before the cards to past the last: each ring shows whole.
      await page.getByRole('heading', { name: 'Listing cards' }).click();
      const rings: string[] = [];
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        const ring = await focusRing(cards);
        if (ring === null && rings.length > 0) break;
        if (ring !== null) rings.push(ring);
      }
      expect(rings, `focus stops at ${width} px`).toHaveLength(
        await cards.locator('a[href]:not([tabindex="-1"]), button').count(),
      );
      expect(rings.filter((ring) => ring !== 'visible')).toEqual([]);
    });
  }
});

test('the report dialog over a listing with a long title fits a phone and a laptop', async ({
  page,
  makeUser,
}, testInfo) => {
  const seller = await makeUser('longtitle');
  const reporter = await makeUser('reporter');
  const listing = await createListing(seller, {
    // As long as a name may be (NAME_MAX_LENGTH, 62), with a long word.
    name: 'Electroencephalography for Neuropsychopharmacology Students II',
    courseNumber: '310',
  });
  await signInBrowser(page, reporter, `/listing/${listing._id}`);
  for (const width of [375, 1280]) {
    await test.step(`at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 800 });
      await page.getByRole('button', { name: 'Report' }).click();
      const dialog = page.getByRole('dialog', { name: 'Report this listing' });
      await expect(dialog.getByRole('button', { name: 'Send report' })).toBeVisible();
      await shoot(page, testInfo, `report-dialog-${width}`);
      const box = await dialog.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
    });
  }
});
