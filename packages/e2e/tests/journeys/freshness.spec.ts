import { expect, signInBrowser, test } from '../../src/fixtures';
import { linkIn, waitForMail } from '../../src/mail';
import { expectNoAxeViolations, screenshot } from '../../src/page-check';
import { createListing } from '../../src/users';

// playwright.config.ts: listings live 7 days and the expiry job runs every second, so a new
// listing's 7-day reminder arrives at once.
test('the "Still available" link of the expiry reminder confirms the listing, once', async ({
  page,
  makeUser,
}, testInfo) => {
  const seller = await makeUser('seller');
  const tag = seller.lastName.slice(-5).toLowerCase();
  const name = `fresh chemistry ${tag}`;
  const listing = await createListing(seller, { name, courseNumber: '205' });
  const mail = await waitForMail(seller.email, /still available/i);
  // The first link of the mail is "Still available".
  const extend = linkIn(mail, '/listing-link/');
  expect(extend).toContain(`${listing._id}~extend~`);

  await test.step('the link opens a page that asks first (a mail scanner changes nothing)', async () => {
    await page.goto(extend);
    await expect(
      page.getByRole('heading', { name: 'Is your book still available?' }),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, 'listing-link');
    await page.getByRole('button', { name: 'Yes, still available' }).click();
    await expect(page.getByRole('status')).toContainText('confirmed available');
  });

  await test.step('the link works once', async () => {
    await page.reload();
    await expect(page.getByRole('heading', { name: 'This link no longer works' })).toBeVisible();
  });

  await test.step('buyers see when it was confirmed', async () => {
    await signInBrowser(page, seller, `/listing/${listing._id}`);
    await expect(page.getByText('Confirmed available today')).toBeVisible();
  });
});
