import type { Locator, Page } from '@playwright/test';
import { expect, test as journeyTest } from '../src/fixtures';
import { bookCover } from '../src/images';
import { linkIn, VERIFY_SUBJECT, waitForMail } from '../src/mail';
import { jpegFile } from '../src/picker';
import { newStudent } from '../src/users';

/**
 * Keyboard-only journeys (docs/accessibility.md). The per-page checks axe cannot make (names, focus,
 * 200 % text, text spacing, reduced motion) run in pages.spec.ts, on the same opening of each page as
 * axe: src/accessibility-checks.ts. Laptop width only: the phone project does not open this file
 * (playwright.config.ts, LAPTOP_ONLY).
 */

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
