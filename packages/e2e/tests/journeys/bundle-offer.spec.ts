import { OFFER_SET_MESSAGES as S } from '@campus-books/common/offer-sets';
import { displayName } from '@campus-books/common/display';
import {
  bookBox,
  expectPickerFirstLook,
  expectSetPending,
  markSetSold,
  PICKER,
  sellerBuyerAndBooks,
  tickTheSet,
  visitorPage,
} from '../../src/bundle-offer';
import { expect, test } from '../../src/fixtures';
import { expectNoAxeViolations, screenshot } from '../../src/page-check';
import { messagesLog as log, openBrowser, runOnceFromLaptop } from '../../src/two-browsers';

runOnceFromLaptop();

test('a buyer on a phone makes one offer for three books; the seller accepts live, a visitor sees all three pending, then sold', async ({
  browser,
  makeUser,
}, testInfo) => {
  test.slow();
  const { seller, buyer, books } = await sellerBuyerAndBooks(makeUser, 'set');
  const { own, other, set } = books;
  const { conversationId } = await buyer.api.call('POST /api/conversations', {
    body: { listingId: own._id, text: 'Do you have the other books for ECON 210 too?' },
  });
  const thread = `/messages/${conversationId}`;
  const phone = await openBrowser(browser, buyer, 375, thread);
  const laptop = await openBrowser(browser, seller, 1280, thread);
  await expect(log(laptop).getByText('Do you have the other books')).toBeVisible();

  const picker = phone.getByRole('group', { name: PICKER });
  const amount = phone.getByLabel('Your offer ($)');

  await test.step('the buyer sees the seller’s other books, the same course first and not ticked', async () => {
    await expectPickerFirstLook(picker, amount, books);
  });

  await test.step('by keyboard and by tap, two books join: the total and the maximum follow', async () => {
    await tickTheSet(phone, picker, amount, books);
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
    await bookBox(phone, other.name).click();
    await expect(picker.getByText('4 books together: $110.50')).toBeVisible();
    await seller.api.call('POST /api/conversations/listing/:listingId/sold', {
      params: { listingId: other._id },
      body: { buyerId: null },
    });
    await amount.fill('70');
    await phone.getByRole('button', { name: 'Make offer for 4 books' }).click();
    await expect(phone.getByRole('alert').filter({ hasText: S.sold(other.name) })).toBeVisible();
    await expect(bookBox(phone, other.name)).toBeDisabled();
    await expect(bookBox(phone, other.name)).toHaveAccessibleName(/Sold/);
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
