import { displayName } from '@campus-books/common/display';
import { OFFER_SET_MESSAGES as S } from '@campus-books/common/offer-sets';
import {
  escape,
  expectPickerFirstLook,
  expectSetPending,
  markSetSold,
  PICKER,
  sellerBuyerAndBooks,
  tickTheSet,
  visitorPage,
} from '../../src/bundle-offer';
import { expect, test } from '../../src/fixtures';
import { expectNoAxeViolations, screenshot, smallTapTargets } from '../../src/page-check';
import { messagesLog as log, openBrowser, runOnceFromLaptop } from '../../src/two-browsers';
import { createListing } from '../../src/users';

runOnceFromLaptop();

test('a buyer on a phone starts from the listing page and makes one offer for three books; the seller accepts live, a visitor sees all three pending, then sold', async ({
  browser,
  makeUser,
}, testInfo) => {
  test.slow();
  const { seller, buyer, books } = await sellerBuyerAndBooks(makeUser, 'page');
  const { tag, own, set } = books;
  const laptop = await openBrowser(browser, seller, 1280, '/messages');
  const phone = await openBrowser(browser, buyer, 375, `/listing/${own._id}`);

  const dialog = phone.getByRole('dialog', { name: 'One offer for several books' });
  const picker = dialog.getByRole('group', { name: PICKER });
  const amount = dialog.getByLabel('Your offer ($)');

  await test.step('the listing page opens the picker: this book first, the same course suggested, none ticked', async () => {
    await expect(phone.getByRole('heading', { level: 1 })).toHaveText(displayName(own.name));
    await phone.getByRole('button', { name: 'Offer for several books' }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(displayName(own.name));
    await expectPickerFirstLook(picker, amount, books);
  });

  await test.step('by keyboard and by tap, two books join; targets are 44 px and nothing overflows 320–375 px', async () => {
    await tickTheSet(phone, picker, amount, books);
    for (const width of [320, 375]) {
      await phone.setViewportSize({ width, height: 800 });
      const overflow = await dialog.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(phone, testInfo, `bundle-offer-from-listing-picker-${width}`);
    }
    await amount.fill('81');
    await dialog.getByRole('button', { name: 'Make offer for 3 books' }).click();
    await expect(dialog.getByText(S.aboveSetPrice)).toBeVisible();
    await expectNoAxeViolations(phone);
  });

  await test.step('the buyer offers $70 for the three with a message, and lands in the thread', async () => {
    await amount.fill('70');
    await dialog
      .getByLabel('Message (optional)')
      .fill('Would you take $70 for the three ECON 210 books?');
    // A double tap sends the same offer twice: one conversation, one offer.
    await dialog.getByRole('button', { name: 'Make offer for 3 books' }).dblclick();
    await expect(phone).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
    const line = log(phone).locator('[data-kind="offer"]');
    await expect(line).toHaveCount(1);
    await expect(line).toContainText('You offered $70 for 3 books');
    await expect(log(phone).getByText('Would you take $70')).toBeVisible();
    for (const book of set) {
      await expect(line.getByRole('link', { name: displayName(book.name) })).toHaveAttribute(
        'href',
        `/listing/${book._id}`,
      );
    }
    await screenshot(phone, testInfo, 'bundle-offer-from-listing-thread-375');
  });

  await test.step('the seller sees the new conversation arrive live and accepts the whole set', async () => {
    const item = laptop.getByTestId('inbox-line').filter({ hasText: tag });
    await expect(item).toHaveCount(1);
    await item.click();
    const offerLine = log(laptop).locator('[data-kind="offer"]');
    await expect(offerLine).toContainText(`${buyer.username} offered $70 for 3 books`);
    const accept = laptop.getByRole('button', { name: 'Accept $70 for 3 books' });
    await screenshot(laptop, testInfo, 'bundle-offer-from-listing-seller-1280');
    await accept.click();
    await expect(
      laptop.getByText(`Pending: all 3 books of the offer are on hold for ${buyer.username}.`),
    ).toBeVisible();
    await expect(
      phone.getByText('Pending: the seller is holding all 3 books for you.'),
    ).toBeVisible();
  });

  const visitor = await visitorPage(browser, testInfo);
  await test.step('a signed-out visitor sees all three books pending', async () => {
    await expectSetPending(visitor, set);
  });

  await test.step('the seller marks the set sold to the buyer: every book is sold', async () => {
    await markSetSold(laptop, visitor, buyer, set);
  });

  await visitor.context().close();
  await phone.context().close();
  await laptop.context().close();
});

test('on the seller’s profile a buyer picks the book the offer starts with, then the others, and lands in the thread', async ({
  browser,
  makeUser,
}, testInfo) => {
  const seller = await makeUser('profseller');
  const buyer = await makeUser('profbuyer');
  const tag = seller.lastName.slice(-5).toLowerCase();
  const course = { subject: 'MATH', courseNumber: '211' };
  const books = [
    await createListing(seller, { ...course, name: `linear algebra ${tag}`, regularPrice: 30 }),
    await createListing(seller, {
      ...course,
      name: `linear algebra workbook ${tag}`,
      regularPrice: 12,
    }),
    await createListing(seller, {
      subject: 'HIST',
      courseNumber: '101',
      name: `world history ${tag}`,
      regularPrice: 20,
    }),
  ];
  const phone = await openBrowser(browser, buyer, 375, `/u/${seller.id}`);
  const dialog = phone.getByRole('dialog', { name: 'One offer for several books' });
  await phone.getByRole('button', { name: 'Offer for several books' }).click();
  const start = dialog.getByLabel('Start with');
  await expect(start.locator('option')).toHaveCount(3);
  // The offer is about the workbook: the other book of its course is suggested.
  await start.selectOption({ label: `${displayName(books[1]!.name)} ($12.00)` });
  const picker = dialog.getByRole('group', { name: PICKER });
  const algebra = picker.getByRole('checkbox', {
    name: new RegExp(escape(displayName(books[0]!.name))),
  });
  await expect(algebra).toHaveAccessibleName(/Same course/);
  await algebra.check();
  await expect(picker.getByText('2 books together: $42.00')).toBeVisible();
  expect(await smallTapTargets(phone)).toEqual([]);
  await screenshot(phone, testInfo, 'bundle-offer-from-profile-375');
  await dialog.getByLabel('Your offer ($)').fill('35');
  await dialog.getByRole('button', { name: 'Make offer for 2 books' }).click();
  await expect(phone).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  const line = log(phone).locator('[data-kind="offer"]');
  await expect(line).toContainText('You offered $35 for 2 books');
  // The conversation is about the book the offer started with.
  await expect(line.getByRole('link')).toHaveText([
    displayName(books[1]!.name),
    displayName(books[0]!.name),
  ]);
  await phone.context().close();
});
