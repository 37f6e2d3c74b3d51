import type { Browser, Locator, Page, TestInfo } from '@playwright/test';
import { displayName } from '@campus-books/common/display';
import { expect, type Fixtures } from './fixtures';
import { expectTapTarget, smallTapTargets } from './page-check';
import { createListing, type TestUser } from './users';

/**
 * What the journeys of one offer for several books (tests/journeys/bundle-offer*.spec.ts) share:
 * the seller's books, the picker's first look and ticks, and the end of the deal a visitor sees.
 */

/** The picker's group of the seller's other books. */
export const PICKER = 'Add more books from this seller';

type Listing = Awaited<ReturnType<typeof createListing>>;
/** The seller's three books of one course (the set) and a fourth of another course. */
export interface SellersBooks {
  /** The seller's name's tail, in every title: the inbox line of this run's conversation. */
  tag: string;
  own: Listing;
  workbook: Listing;
  reader: Listing;
  other: Listing;
  /** The three of ECON 210: the offer's. */
  set: Listing[];
}

/**
 * The seller lists three books of ECON 210 ($40, $25.50, $15) and one of ECON 305 ($30). Long
 * titles, one in another script (right to left): the lists must wrap, never overflow a phone.
 */
export async function sellersBooks(seller: TestUser): Promise<SellersBooks> {
  const tag = seller.lastName.slice(-5).toLowerCase();
  const course = { subject: 'ECON', courseNumber: '210' };
  const own = await createListing(seller, {
    ...course,
    name: `principles of microeconomics, study guide and solutions ${tag}`,
    regularPrice: 40,
  });
  const workbook = await createListing(seller, {
    ...course,
    name: `مبادئ الاقتصاد الجزئي: كتاب التمارين والحلول للطلاب ${tag}`,
    regularPrice: 25.5,
  });
  const reader = await createListing(seller, {
    ...course,
    name: `readingsineconomicthoughtfromadamsmithtothepresentday ${tag}`,
    regularPrice: 15,
  });
  const other = await createListing(seller, {
    subject: 'ECON',
    courseNumber: '305',
    name: `econometrics ${tag}`,
    regularPrice: 30,
  });
  return { tag, own, workbook, reader, other, set: [own, workbook, reader] };
}

/**
 * The deal's seller and buyer (made by the test's `makeUser`, named `<label>seller` and
 * `<label>buyer`) and the seller's books.
 */
export async function sellerBuyerAndBooks(makeUser: Fixtures['makeUser'], label: string) {
  const seller = await makeUser(`${label}seller`);
  const buyer = await makeUser(`${label}buyer`);
  return { seller, buyer, books: await sellersBooks(seller) };
}

/** A title as a pattern of itself. */
export function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A book's box in the picker (within `scope`), found by its title. */
export function bookBox(scope: Page | Locator, name: string): Locator {
  return scope
    .getByRole('group', { name: PICKER })
    .getByRole('checkbox', { name: new RegExp(escape(displayName(name))) });
}

/**
 * The picker's first look: the seller's other three books, the two of the same course first and
 * not ticked, the other course's last; the total and the offer's maximum are the book's own.
 */
export async function expectPickerFirstLook(picker: Locator, amount: Locator, books: SellersBooks) {
  await expect(picker.getByRole('checkbox')).toHaveCount(3);
  const labels = await picker.locator('label').allInnerTexts();
  expect(labels[2]).toContain(displayName(books.other.name));
  for (const book of [books.workbook, books.reader]) {
    await expect(bookBox(picker.page(), book.name)).not.toBeChecked();
    await expect(bookBox(picker.page(), book.name)).toHaveAccessibleName(/Same course/);
  }
  await expect(picker.getByText('This book alone: $40.00')).toBeVisible();
  await expect(amount).toHaveAttribute('max', '40');
}

/**
 * The workbook ticked by keyboard, the reader by tap: the total and maximum follow, and every box
 * is a 44 px target.
 */
export async function tickTheSet(
  phone: Page,
  picker: Locator,
  amount: Locator,
  books: SellersBooks,
) {
  await bookBox(phone, books.workbook.name).focus();
  await phone.keyboard.press('Space');
  await bookBox(phone, books.reader.name).click();
  await expect(picker.getByText('3 books together: $80.50')).toBeVisible();
  await expect(amount).toHaveAttribute('max', '80');
  expect(await smallTapTargets(phone)).toEqual([]);
  for (const label of await picker.locator('label').all()) {
    await expectTapTarget(label);
  }
}

/** A signed-out visitor's page (a context of its own). */
export async function visitorPage(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  return context.newPage();
}

/** A signed-out visitor sees every book of the set pending. */
export async function expectSetPending(visitor: Page, set: readonly Listing[]) {
  for (const book of set) {
    await visitor.goto(`/listing/${book._id}`);
    await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(displayName(book.name));
    await expect(visitor.getByRole('main').getByText('Pending', { exact: true })).toBeVisible();
  }
}

/**
 * The seller marks the set sold from the thread (the buyer of the accepted offer chosen), and the
 * visitor sees every book of it sold, none pending.
 */
export async function markSetSold(
  laptop: Page,
  visitor: Page,
  buyer: TestUser,
  set: readonly Listing[],
) {
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
}
