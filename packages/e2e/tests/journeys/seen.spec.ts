import type { Page } from '@playwright/test';
import { expect, test } from '../../src/fixtures';
import { openEventStreams } from '../../src/event-streams';
import { expectNoAxeViolations, expectTapTarget } from '../../src/page-check';
import { openBrowser, runOnceFromLaptop, messagesLog } from '../../src/two-browsers';
import { createListing } from '../../src/users';

runOnceFromLaptop();

const log = messagesLog;
const seen = (page: Page) => log(page).getByText('Seen', { exact: true });

test('a buyer taps a first message and sees "Seen" live; once the seller turns receipts off, neither sees it', async ({
  browser,
  makeUser,
}) => {
  test.slow();
  const seller = await makeUser('seenseller');
  const buyer = await makeUser('seenbuyer');
  const tag = seller.lastName.slice(-5).toLowerCase();
  const listing = await createListing(seller, {
    name: `linear algebra ${tag}`,
    courseNumber: '221',
    regularPrice: 30,
  });

  const phone = await openBrowser(browser, buyer, 375, `/listing/${listing._id}`);
  const laptop = await openBrowser(browser, seller, 1280, '/profile');

  await test.step('the buyer taps "Would you take $30.00?": the text waits in the box, unsent', async () => {
    const ask = phone.getByRole('region', { name: 'Ask the seller' });
    const offer = ask.getByRole('button', { name: 'Would you take $30.00?' });
    await expect(ask.getByRole('button')).toHaveCount(3);
    for (const chip of await ask.getByRole('button').all()) {
      await expectTapTarget(chip);
    }
    await expectNoAxeViolations(phone);
    // Reachable by keyboard: focus it and press Enter.
    await offer.focus();
    await phone.keyboard.press('Enter');
    await expect(phone.getByRole('heading', { name: 'Message the seller' })).toBeVisible();
    const box = phone.getByLabel('Your message');
    await expect(box).toHaveValue('Would you take $30.00?');
    await box.fill('Would you take $25.00?');
    // A double tap sends one message.
    await phone.getByRole('button', { name: 'Send' }).dblclick();
    await expect(phone).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
    await expect(log(phone).getByText('Would you take $25.00?')).toHaveCount(1);
    await expect(seen(phone)).toHaveCount(0);
    await expect.poll(() => openEventStreams(phone)).toBe(1);
  });

  await test.step('the seller opens it; the buyer sees "Seen" under the message, live', async () => {
    await laptop.goto('/messages');
    await laptop.getByRole('link', { name: new RegExp(buyer.username) }).click();
    await expect(log(laptop).getByText('Would you take $25.00?')).toHaveCount(1);
    await expect(seen(phone)).toBeVisible();
    await expectNoAxeViolations(phone);
  });

  await test.step('the seller turns read receipts off: neither sees "Seen" any more', async () => {
    await laptop.goto('/profile');
    const receipts = laptop.getByLabel(/Read receipts/);
    await expect(receipts).toBeChecked();
    await receipts.click();
    await expect(receipts).not.toBeChecked();
    await expectNoAxeViolations(laptop);

    await phone.reload();
    await expect(log(phone).getByText('Would you take $25.00?')).toBeVisible();
    await expect(seen(phone)).toHaveCount(0);
    // The seller writes; the buyer reads it (their mark moves), and the seller sees no "Seen".
    await laptop.goBack();
    await laptop.getByLabel('Message', { exact: true }).fill('25 is fine, library at noon?');
    await laptop.getByRole('button', { name: 'Send' }).click();
    await expect(log(phone).getByText('25 is fine, library at noon?')).toBeVisible();
    await laptop.reload();
    await expect(log(laptop).getByText('25 is fine, library at noon?')).toBeVisible();
    await expect(seen(laptop)).toHaveCount(0);
    await expect(seen(phone)).toHaveCount(0);
  });

  await phone.context().close();
  await laptop.context().close();
});
