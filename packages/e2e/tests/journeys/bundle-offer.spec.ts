import { displayName } from '@campus-books/common/display';
import { OFFER_SET_MESSAGES as S } from '@campus-books/common/offer-sets';
import type { Page } from '@playwright/test';
import { expect, test } from '../../src/fixtures';
import {
  expectNoAxeViolations,
  MIN_TAP_TARGET,
  screenshot,
  smallTapTargets,
} from '../../src/page-check';
import { messagesLog, openBrowser, runOnceFromLaptop } from '../../src/two-browsers';
import { createListing } from '../../src/users';

runOnceFromLaptop();

const log = messagesLog;

test('a buyer on a phone makes one offer for three books; the seller accepts live, a visitor sees all three pending, then sold', async ({
  browser,
  makeUser,
}, testInfo) => {
  test.slow();
  const seller = await makeUser('setseller');
  const buyer = await makeUser('setbuyer');
  const tag = seller.lastName.slice(-5).toLowerCase();
  const course = { subject: 'ECON', courseNumber: '210' };
  // Long titles and another script (right to left): the lists wrap, never overflow a 375 px phone.
  const own = await createListing(seller, {
    ...course,
    name: `principles of microeconomics, complete with study guide ${tag}`,
    regularPrice: 40,
  });
  const workbook = await createListing(seller, {
    ...course,
    name: `مبادئ الاقتصاد الجزئي: كتاب التمارين والحلول ${tag}`,
    regularPrice: 25.5,
  });
  const reader = await createListing(seller, {
    ...course,
    name: `readings in economic thought ${tag}`,
    regularPrice: 15,
  });
  const other = await createListing(seller, {
    subject: 'ECON',
    courseNumber: '305',
    name: `econometrics ${tag}`,
    regularPrice: 30,
  });
  const set = [own, workbook, reader];
  const { conversationId } = await buyer.api.call('POST /api/conversations', {
    body: { listingId: own._id, text: 'Do you have the other books for ECON 210 too?' },
  });
  const thread = `/messages/${conversationId}`;
  const phone = await openBrowser(browser, buyer, 375, thread);
  const laptop = await openBrowser(browser, seller, 1280, thread);
  await expect(log(laptop).getByText('Do you have the other books')).toBeVisible();

  const picker = phone.getByRole('group', { name: 'Add more books from this seller' });
  const box = (page: Page, name: string) =>
    page
      .getByRole('group', { name: 'Add more books from this seller' })
      .getByRole('checkbox', { name: new RegExp(escape(displayName(name))) });
  const amount = phone.getByLabel('Your offer ($)');

  await test.step('the buyer sees the seller’s other books, the same course first and not ticked', async () => {
    await expect(picker.getByRole('checkbox')).toHaveCount(3);
    const labels = await picker.locator('label').allInnerTexts();
    expect(labels[2]).toContain(displayName(other.name));
    for (const book of [workbook, reader]) {
      await expect(box(phone, book.name)).not.toBeChecked();
      await expect(box(phone, book.name)).toHaveAccessibleName(/Same course/);
    }
    await expect(picker.getByText('This book alone: $40.00')).toBeVisible();
    await expect(amount).toHaveAttribute('max', '40');
  });

  await test.step('by keyboard and by tap, two books join: the total and the maximum follow', async () => {
    await box(phone, workbook.name).focus();
    await phone.keyboard.press('Space');
    await box(phone, reader.name).click();
    await expect(picker.getByText('3 books together: $80.50')).toBeVisible();
    await expect(amount).toHaveAttribute('max', '80');
    expect(await smallTapTargets(phone)).toEqual([]);
    for (const label of await picker.locator('label').all()) {
      expect((await label.boundingBox())!.height).toBeGreaterThanOrEqual(MIN_TAP_TARGET);
    }
    // Nothing wider than the phone, down to the narrowest (320 px).
    for (const width of [320, 375]) {
      await phone.setViewportSize({ width, height: 800 });
      await expect
        .poll(() => phone.evaluate(() => document.documentElement.scrollWidth))
        .toBeLessThanOrEqual(width);
    }
    await amount.fill('81');
    await phone.getByRole('button', { name: 'Make offer for 3 books' }).click();
    await expect(phone.getByText(S.aboveSetPrice)).toBeVisible();
    await expectNoAxeViolations(phone);
  });

  await test.step('a book sold meanwhile is refused by name, beside the form and beside its box', async () => {
    await box(phone, other.name).click();
    await expect(picker.getByText('4 books together: $110.50')).toBeVisible();
    await seller.api.call('POST /api/conversations/listing/:listingId/sold', {
      params: { listingId: other._id },
      body: { buyerId: null },
    });
    await amount.fill('70');
    await phone.getByRole('button', { name: 'Make offer for 4 books' }).click();
    await expect(phone.getByRole('alert').filter({ hasText: S.sold(other.name) })).toBeVisible();
    await expect(box(phone, other.name)).toBeDisabled();
    await expect(box(phone, other.name)).toHaveAccessibleName(/Sold/);
    await expect(picker.getByText('3 books together: $80.50')).toBeVisible();
  });

  await test.step('the buyer offers $70 for the three books', async () => {
    await phone.getByRole('button', { name: 'Make offer for 3 books' }).click();
    const line = log(phone).locator('[data-kind="offer"]');
    await expect(line).toContainText('You offered $70 for 3 books');
    for (const book of set) {
      await expect(line.getByRole('link', { name: displayName(book.name) })).toHaveAttribute(
        'href',
        `/listing/${book._id}`,
      );
    }
    await screenshot(phone, testInfo, 'bundle-offer-buyer-375');
  });

  await test.step('the seller sees it live, with its books, and accepts the whole set', async () => {
    const offerLine = log(laptop).locator('[data-kind="offer"]');
    await expect(offerLine).toContainText(`${buyer.username} offered $70 for 3 books`);
    const books = laptop.getByRole('list', { name: 'Books of the offer' }).last();
    await expect(books.getByRole('link')).toHaveCount(3);
    const accept = laptop.getByRole('button', { name: 'Accept $70 for 3 books' });
    await expect(accept).toBeVisible();
    await screenshot(laptop, testInfo, 'bundle-offer-seller-1280');
    await accept.click();
    await expect(
      laptop.getByText(`Pending: all 3 books of the offer are on hold for ${buyer.username}.`),
    ).toBeVisible();
    await expect(
      phone.getByText('Pending: the seller is holding all 3 books for you.'),
    ).toBeVisible();
    await expect(
      phone.getByRole('list', { name: 'Books on hold' }).getByText('On hold', { exact: true }),
    ).toHaveCount(3);
    await expectNoAxeViolations(laptop);
  });

  const visitor = await (
    await browser.newContext({ baseURL: testInfo.project.use.baseURL })
  ).newPage();
  await test.step('a signed-out visitor sees all three books pending', async () => {
    for (const book of set) {
      await visitor.goto(`/listing/${book._id}`);
      await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(displayName(book.name));
      await expect(visitor.getByRole('main').getByText('Pending', { exact: true })).toBeVisible();
    }
  });

  await test.step('the seller marks the set sold to the buyer: every book is sold', async () => {
    await laptop.getByRole('button', { name: 'Mark sold' }).click();
    const dialog = laptop.getByRole('dialog', { name: 'Sold to whom?' });
    await expect(dialog).toContainText('every book of the set is marked sold');
    await expect(dialog.getByRole('radio', { name: buyer.username })).toBeChecked();
    await dialog.getByRole('button', { name: 'Mark sold' }).click();
    await expect(dialog).toHaveCount(0);
    for (const book of set) {
      await visitor.goto(`/listing/${book._id}`);
      await expect(visitor.getByText('Sold: this book is no longer available.')).toBeVisible();
      await expect(visitor.getByRole('main').getByText('Pending', { exact: true })).toHaveCount(0);
    }
  });

  await visitor.context().close();
  await phone.context().close();
  await laptop.context().close();
});

/** A title as a pattern of itself. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
