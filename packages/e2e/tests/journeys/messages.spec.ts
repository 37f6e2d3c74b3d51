import { displayName } from '@campus-books/common/display';
import type { Locator, Page } from '@playwright/test';
import { expect, openMenu, signInBrowser, test } from '../../src/fixtures';
import { openEventStreams, recordEventStreams } from '../../src/event-streams';
import { expectNoAxeViolations, expectTapTarget, screenshot } from '../../src/page-check';
import { openBrowser, runOnceFromLaptop, messagesLog } from '../../src/two-browsers';
import { createListing } from '../../src/users';

runOnceFromLaptop();

const log = messagesLog;

/** Presses Tab until `target` has the focus (at most `max` presses): the keyboard's way there. */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let presses = 0; presses < max; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test('a buyer on a phone and a seller on a laptop agree on a price live, and the book is sold to the buyer', async ({
  browser,
  makeUser,
}, testInfo) => {
  // Two browsers and a third student's: more pages than one journey usually loads.
  test.slow();
  const seller = await makeUser('msgseller');
  const buyer = await makeUser('msgbuyer');
  const third = await makeUser('msgthird');
  const tag = seller.lastName.slice(-5).toLowerCase();
  const listing = await createListing(seller, {
    name: `organic chemistry ${tag}`,
    courseNumber: '210',
    regularPrice: 40,
  });
  const name = displayName(listing.name);

  const phone = await openBrowser(browser, buyer, 375, `/listing/${listing._id}`);
  const laptop = await openBrowser(browser, seller, 1280, '/profile');

  await test.step('the buyer writes first from the listing page ("Message seller", 44 px, in the sticky bar)', async () => {
    const bar = phone.getByTestId('contact-bar');
    const message = bar.getByRole('link', { name: 'Message seller' });
    await expect(message).toBeVisible();
    await expectTapTarget(message);
    // The seller gave a GroupMe link: it stays, as the second way.
    await expect(bar.getByRole('link', { name: 'Contact Seller on GroupMe' })).toBeVisible();
    await message.click();
    await expect(phone.getByRole('heading', { name: 'Message the seller' })).toBeVisible();
    await expectNoAxeViolations(phone);
    const box = phone.getByLabel('Your message');
    // The common schema's message for nothing visible.
    await box.fill('   ');
    await phone.getByRole('button', { name: 'Send' }).click();
    await expect(phone.getByText('Write a message')).toBeVisible();
    await box.fill('Hi! Is it still available? My notes: https://evil.example/login');
    await phone.getByRole('button', { name: 'Send' }).click();
    await expect(phone).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
    await expect(log(phone).getByText('Is it still available?')).toBeVisible();
    // A link in a message is text to copy, never a live link.
    await expect(log(phone).getByRole('link')).toHaveCount(0);
    await expect.poll(() => openEventStreams(phone)).toBe(1);
  });

  await test.step('the seller sees the unread count in the header, and the conversation on the listing', async () => {
    await laptop.goto(`/listing/${listing._id}`);
    await expect(laptop.getByTestId('header-messages')).toContainText('1');
    const about = laptop.getByRole('region', { name: 'Messages about this listing' });
    await about.getByRole('link', { name: new RegExp(buyer.username) }).click();
    await expect(log(laptop).getByText('Is it still available?')).toBeVisible();
    await expect(laptop.getByTestId('header-messages')).not.toContainText('1');
    await expect(laptop.getByText(buyer.email)).toHaveCount(0);
  });

  await test.step('a reply reaches the other side without reloading, both ways', async () => {
    await laptop.getByLabel('Message', { exact: true }).fill('Yes! Library at noon?');
    await laptop.getByRole('button', { name: 'Send' }).click();
    await expect(log(phone).getByText('Yes! Library at noon?')).toBeVisible();
    await phone.getByLabel('Message', { exact: true }).fill('Noon works.');
    await phone.getByRole('button', { name: 'Send' }).click();
    await expect(log(laptop).getByText('Noon works.')).toBeVisible();
  });

  await test.step('offer, counter, accept: Pending for everyone, a third student too', async () => {
    const offer = phone.getByLabel('Your offer ($)');
    await offer.fill('41');
    await phone.getByRole('button', { name: 'Make offer' }).click();
    await expect(phone.getByText('An offer cannot be above the listing price')).toBeVisible();
    await offer.fill('30');
    await phone.getByRole('button', { name: 'Make offer' }).click();
    await expect(laptop.getByText(`${buyer.username} offered $30`).first()).toBeVisible();
    await laptop.getByLabel('Counter offer ($)').fill('35');
    await laptop.getByRole('button', { name: 'Send counter offer' }).click();
    await expect(log(phone).getByText('countered with $35')).toBeVisible();
    await phone.getByRole('button', { name: 'Accept $35' }).click();
    await expect(log(laptop).getByText('accepted the offer of $35')).toBeVisible();
    await expect(laptop.getByText('Pending', { exact: true })).toBeVisible();
    await expect(
      phone.getByText('Pending: the seller is holding this book for you.'),
    ).toBeVisible();
    await screenshot(phone, testInfo, 'conversation-buyer-375');
    await screenshot(laptop, testInfo, 'conversation-seller-1280');

    const other = await openBrowser(browser, third, 1280, `/listing/${listing._id}`);
    await expect(other.getByRole('main').getByText('Pending', { exact: true })).toBeVisible();
    await other.context().close();
  });

  await test.step('"Mark sold" asks to whom: the buyer', async () => {
    await laptop.getByRole('button', { name: 'Mark sold' }).click();
    const dialog = laptop.getByRole('dialog', { name: 'Sold to whom?' });
    await expect(dialog.getByRole('radio', { name: buyer.username })).toBeChecked();
    await expect(dialog.getByRole('radio', { name: 'Someone else' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Mark sold' }).click();
    await expect(log(phone).getByText('The listing was marked as sold')).toBeVisible();
    await expect(log(laptop).getByText('The listing was marked as sold')).toBeVisible();
  });

  await test.step('the inbox lists the conversation, latest first, with the unread mark', async () => {
    // The buyer leaves the thread first: a message that reached the open thread would be read there.
    await phone.getByRole('link', { name: 'All messages' }).click();
    const item = phone.getByRole('link', { name: new RegExp(name, 'i') });
    await expect(item).toContainText(seller.username);
    await expect.poll(() => openEventStreams(phone)).toBe(1);
    await laptop.getByLabel('Message', { exact: true }).fill('Thanks, see you!');
    await laptop.getByRole('button', { name: 'Send' }).click();
    // The inbox's own stream marks it, without a reload: the latest word, the deal, unread.
    await expect(item).toContainText('Unread');
    await expect(item.getByTestId('inbox-latest')).toHaveText(
      `${seller.username}: Thanks, see you!`,
    );
    await expect(item.getByTestId('inbox-deal')).toHaveText('Sold');
    await screenshot(phone, testInfo, 'inbox-buyer-375');
    await openMenu(phone);
    await expect(phone.getByTestId('menu-messages')).toContainText('1');
    await item.click();
    await expect(log(phone).getByText('Thanks, see you!')).toBeVisible();
    await expect(phone.getByTestId('menu-messages')).not.toContainText('1');
  });

  await test.step('the buyer blocks the seller: read-only for both; unblock from the profile', async () => {
    await phone.getByRole('button', { name: `Block ${seller.username}` }).click();
    await phone.getByRole('dialog').getByRole('button', { name: 'Block' }).click();
    await expect(phone.getByText(`You blocked ${seller.username}`)).toBeVisible();
    await expect(phone.getByLabel('Message', { exact: true })).toHaveCount(0);
    await laptop.reload();
    await expect(laptop.getByText(/This conversation is read-only/)).toBeVisible();
    await expect(laptop.getByLabel('Message', { exact: true })).toHaveCount(0);

    await phone.goto('/profile');
    // Leaving the thread closed its stream; the profile opens none.
    expect(await openEventStreams(phone)).toBe(0);
    const blocked = phone.getByRole('region', { name: 'Blocked students' });
    await blocked.getByRole('button', { name: `Unblock ${seller.username}` }).click();
    await expect(blocked.getByText('You have not blocked anyone.')).toBeVisible();
  });

  await phone.context().close();
  await laptop.context().close();
});

test('a seller who gave no GroupMe link is reached through messages only (decision 019)', async ({
  page,
  makeUser,
}, testInfo) => {
  const seller = await makeUser('nogroupme');
  await seller.api.call('POST /api/user/update/:id', {
    params: { id: seller.id },
    body: { groupmelink: '' },
  });
  const listing = await createListing(seller, { name: 'no groupme physics', courseNumber: '131' });
  const buyer = await makeUser('msgbuyer');
  await signInBrowser(page, buyer, `/listing/${listing._id}`);
  const bar = page.getByTestId('contact-bar');
  await expect(bar.getByRole('link', { name: 'Message seller' })).toBeVisible();
  await expect(bar.getByRole('link', { name: /GroupMe|Contact Seller/ })).toHaveCount(0);
  await page.goto(`/contact-seller/${seller.id}`);
  await expect(page.getByRole('heading', { name: 'Write to the seller here' })).toBeVisible();
  await expect(page.locator('a[href=""]')).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshot(page, testInfo, 'contact-seller-no-groupme');
});

test('the thread closes its event stream on every way out', async ({ page, makeUser }) => {
  const seller = await makeUser('streamseller');
  const buyer = await makeUser('streambuyer');
  const listing = await createListing(seller, {
    name: `statics ${seller.lastName.slice(-5).toLowerCase()}`,
    courseNumber: '120',
    regularPrice: 12,
  });
  await buyer.api.call('POST /api/conversations', {
    body: { listingId: listing._id, text: 'Still there?' },
  });
  await recordEventStreams(page);
  await signInBrowser(page, buyer, '/profile');
  const streams = () => openEventStreams(page);
  await page.getByTestId('header-messages').click();
  await expect.poll(streams).toBe(1);
  await page.getByRole('link', { name: new RegExp(listing.name, 'i') }).click();
  await expect(log(page).getByText('Still there?')).toBeVisible();
  await expect.poll(streams).toBe(1);
  // A link elsewhere closes it; the browser's Back and Forward buttons too.
  await page.getByRole('link', { name: 'New Listing' }).click();
  await expect(page.getByRole('heading', { name: 'Create a Listing' })).toBeVisible();
  await expect.poll(streams).toBe(0);
  await page.goBack();
  await expect(log(page).getByText('Still there?')).toBeVisible();
  await expect.poll(streams).toBe(1);
  await page.goBack();
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await expect.poll(streams).toBe(0);
  await page.goForward();
  await page.goForward();
  await expect(log(page).getByText('Still there?')).toBeVisible();
  await expect.poll(streams).toBe(1);
  // The tab hidden (a phone showing another app) closes it; shown again, it opens one.
  for (const hidden of [true, false]) {
    await page.evaluate((isHidden) => {
      Object.defineProperty(document, 'visibilityState', {
        configurable: true,
        get: () => (isHidden ? 'hidden' : 'visible'),
      });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
    await expect.poll(streams).toBe(hidden ? 0 : 1);
  }
});

test('keyboard only: a first message and an offer', async ({ page, makeUser }) => {
  const seller = await makeUser('kbseller');
  const buyer = await makeUser('kbbuyer');
  const listing = await createListing(seller, {
    name: `macroeconomics ${seller.lastName.slice(-5).toLowerCase()}`,
    courseNumber: '102',
    regularPrice: 25,
  });
  await signInBrowser(page, buyer, `/listing/${listing._id}`);

  await tabTo(page, page.getByRole('link', { name: 'Message seller' }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByLabel('Your message'));
  await page.keyboard.type('Could we meet at the library?');
  // The first message can carry photos: their button comes between the box and Send.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Add photos' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Send' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(log(page).getByText('Could we meet at the library?')).toBeVisible();

  await tabTo(page, page.getByLabel('Your offer ($)'));
  await page.keyboard.type('20');
  await page.keyboard.press('Enter');
  await expect(log(page).getByText('You offered $20')).toBeVisible();
  await expect(page.getByText('Your offer of $20 is waiting for an answer.')).toBeVisible();
});

test('the inbox at a glance, the header on one line with a badge, the message box on screen over a long history', async ({
  browser,
  makeUser,
}, testInfo) => {
  const seller = await makeUser('glanceseller');
  const buyer = await makeUser('glancebuyer');
  const tag = seller.lastName.slice(-5).toLowerCase();
  const book = (name: string) =>
    createListing(seller, { name: `${name} ${tag}`, courseNumber: '110', regularPrice: 40 });
  const [asked, offered, held, sold] = await Promise.all(
    ['linear algebra', 'calculus', 'statistics', 'geometry'].map(book),
  );
  const start = async (listingId: string, text: string) =>
    (await buyer.api.call('POST /api/conversations', { body: { listingId, text } })).conversationId;
  const askedId = await start(asked!._id, 'Is the cover torn?');
  const offer = async (listingId: string, amount: number) => {
    const id = await start(listingId, 'Would you take less?');
    return buyer.api.call('POST /api/conversations/:id/offers', {
      params: { id },
      body: { amount },
    });
  };
  await offer(offered!._id, 15);
  const accepted = await offer(held!._id, 30);
  const heldId = (await buyer.api.call('GET /api/conversations')).conversations.find(
    (c) => c.listing.id === held!._id,
  )!.id;
  await seller.api.call('POST /api/conversations/:id/offers/:offerId/accept', {
    params: { id: heldId, offerId: accepted.event.offerId! },
  });
  await start(sold!._id, 'I will take it.');
  await seller.api.call('POST /api/conversations/listing/:listingId/sold', {
    params: { listingId: sold!._id },
    body: { buyerId: buyer.id },
  });

  const laptop = await openBrowser(browser, seller, 1280, '/messages');
  const line = (page: Page, name: string) =>
    page.getByTestId('inbox-line').filter({ hasText: `${name} ${tag}` });

  await test.step("the seller's inbox: the latest word, the deal, unread", async () => {
    const question = line(laptop, 'linear algebra');
    await expect(question.getByTestId('inbox-latest')).toHaveText(
      `${buyer.username}: Is the cover torn?`,
    );
    await expect(question).toContainText('Unread');
    await expect(line(laptop, 'calculus').getByTestId('inbox-deal')).toHaveText(
      'Offer of $15 to answer',
    );
    await expect(line(laptop, 'statistics').getByTestId('inbox-deal')).toHaveText(
      /^Pending until \w{3},? \d{1,2}:\d{2}\s[AP]M$/,
    );
    await expect(line(laptop, 'geometry').getByTestId('inbox-deal')).toHaveText('Sold');
  });

  await test.step('the header stays on one line at 1280 px with the unread badge', async () => {
    await expect(laptop.getByTestId('header-messages')).toContainText(/\d/);
    const header = laptop.getByRole('banner');
    const logo = await header.getByRole('link', { name: /Campus Books/ }).boundingBox();
    const avatar = await header.getByRole('link', { name: 'Account' }).boundingBox();
    expect(Math.abs(logo!.y + logo!.height / 2 - (avatar!.y + avatar!.height / 2))).toBeLessThan(4);
    // The logo's name on one line: no taller than its 32 px mark.
    expect(logo!.height).toBeLessThanOrEqual(36);
    await screenshot(laptop, testInfo, 'inbox-seller-1280');
  });

  const phone = await openBrowser(browser, buyer, 375, '/messages');
  await test.step("the buyer's inbox says what they wrote last", async () => {
    await expect(line(phone, 'linear algebra').getByTestId('inbox-latest')).toHaveText(
      'You: Is the cover torn?',
    );
    await expect(line(phone, 'calculus').getByTestId('inbox-deal')).toHaveText(
      'Your offer of $15 is waiting',
    );
    await expect(line(phone, 'linear algebra')).not.toContainText('Unread');
  });

  await test.step('a long history on a phone: the message box stays on screen at the bottom', async () => {
    for (let n = 1; n <= 12; n += 1) {
      for (const [user, who] of [
        [buyer, 'buyer'],
        [seller, 'seller'],
      ] as const) {
        await user.api.call('POST /api/conversations/:id/messages', {
          params: { id: askedId },
          body: {
            text: `Line ${n} from the ${who}: a message long enough to take two lines on a phone.`,
          },
        });
      }
    }
    await phone.goto(`/messages/${askedId}`);
    await expect(log(phone).getByText('Line 12 from the seller')).toBeInViewport();
    const box = phone.getByLabel('Message', { exact: true });
    const height = phone.viewportSize()!.height;
    const onScreen = async () => {
      const field = (await box.boundingBox())!;
      expect(field.y).toBeGreaterThanOrEqual(0);
      expect(field.y + field.height).toBeLessThanOrEqual(height);
    };
    await onScreen();
    // Scrolled back through the history, the box stays where the thumb is.
    await phone.evaluate(() => window.scrollTo(0, 0));
    await expect(log(phone).getByText('Line 1 from the buyer')).toBeInViewport();
    await onScreen();
    await screenshot(phone, testInfo, 'thread-long-history-375');
  });

  await phone.context().close();
  await laptop.context().close();
});
