import type { Locator, Page } from '@playwright/test';
import { expect, test as journeyTest } from '../src/fixtures';
import { bookCover } from '../src/images';
import { linkIn, VERIFY_SUBJECT, waitForMail } from '../src/mail';
import {
  clippedUnderTextSpacing,
  invisibleFocusStops,
  lowContrastControlBorders,
  movingElements,
  namedControlCount,
  settle,
  unnamedControls,
  widerThanViewport,
} from '../src/page-check';
import { jpegFile } from '../src/picker';
import { routePageTest } from '../src/route-page-test';
import { openRoutePage, ROUTE_PAGES } from '../src/route-pages';
import { newStudent } from '../src/users';

/**
 * The checks behind docs/accessibility.md that axe cannot make (pages.spec.ts runs axe, reflow at
 * 320 px and target size on the same pages): names in Chromium's accessibility tree, focus that can
 * be seen, 200 % text, WCAG text spacing and reduced motion; then keyboard-only journeys. Checked
 * once, at laptop width (reflow: pages.spec.ts): the phone project does not open this file
 * (playwright.config.ts, LAPTOP_ONLY).
 */
for (const pageCase of ROUTE_PAGES) {
  routePageTest(
    `${pageCase.name}: named controls, visible focus, 200 % text, text spacing, reduced motion`,
    async ({ page, data }) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await openRoutePage(page, pageCase, data);
      await settle(page, pageCase.ready, pageCase);
      await pageCase.then?.(page);

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
    },
  );
}

/** Presses Tab until `target` has the focus (at most `limit` times): keyboard-only reachability. */
async function tabTo(page: Page, target: Locator, limit = 80): Promise<void> {
  await expect(target).toBeVisible();
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

journeyTest(
  'keyboard only: a student signs up, then lists a book with a photo',
  async ({ page, adoptUser }) => {
    const student = newStudent('keys');
    await page.goto('/sign-up');
    await typeInto(page, page.getByLabel('First name'), student.firstName);
    await typeInto(page, page.getByLabel('Last name'), student.lastName);
    await typeInto(page, page.getByLabel('Email Address (.edu)'), student.email);
    await typeInto(page, page.getByLabel('Password', { exact: true }), student.password);
    await typeInto(page, page.getByLabel('GroupMe link'), student.groupmelink);
    await tabTo(page, page.getByRole('button', { name: 'Sign Up' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.goto(linkIn(await waitForMail(student.email, VERIFY_SUBJECT), '/verify-email/'));
    await expect(page.getByRole('status')).toContainText('verified');

    await page.goto('/sign-in');
    await typeInto(page, page.getByLabel('Email address'), student.email);
    await typeInto(page, page.getByLabel('Password'), student.password);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/$/);
    await adoptUser(student);

    await tabTo(page, page.getByRole('link', { name: 'New Listing' }).first());
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Create a Listing' })).toBeVisible();
    const bookName = `keyboard calculus ${student.lastName.slice(-5)}`;
    await typeInto(page, page.getByLabel('Name', { exact: true }), bookName);
    await typeInto(page, page.getByLabel('Course Number'), '110');
    await typeInto(page, page.getByLabel('Description'), 'Clean copy.');
    await typeInto(page, page.getByLabel('Address'), 'Library steps');
    // One stop for the group (the checked radio); arrows choose within it.
    await tabTo(page, page.getByRole('radio', { checked: true }));
    await page.keyboard.press('ArrowUp');
    await expect(page.getByRole('radio', { name: 'Excellent' })).toBeChecked();
    await typeInto(page, page.getByLabel('Regular price ($)'), '30');
    const chooser = page.waitForEvent('filechooser');
    await tabTo(page, page.getByRole('button', { name: 'Choose images' }));
    await page.keyboard.press('Enter');
    // The photo uploads as soon as it is chosen: no second press.
    await (await chooser).setFiles([jpegFile('cover.jpg', await bookCover(90))]);
    await expect(page.locator('form img[src^="/api/images/"]')).toHaveCount(1, { timeout: 30_000 });
    await tabTo(page, page.getByRole('button', { name: 'Create listing' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: bookName })).toBeVisible();
  },
);
