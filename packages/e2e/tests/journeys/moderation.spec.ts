import { expect, signInBrowser, test } from '../../src/fixtures';
import { expectNoAxeViolations, screenshot } from '../../src/page-check';
import { waitForMail } from '../../src/mail';
import { makeModerator } from '../../src/moderator';
import { createListing, deleteUser } from '../../src/users';

test('three students report a listing: it leaves search; a moderator removes it and the seller is told why', async ({
  page,
  makeUser,
}, testInfo) => {
  const seller = await makeUser('seller');
  const tag = seller.lastName.slice(-5).toLowerCase();
  const name = `suspicious physics ${tag}`;
  const listing = await createListing(seller, { name, courseNumber: '101' });
  const students = [
    await makeUser('reporter'),
    await makeUser('reporter'),
    await makeUser('reporter'),
  ];
  const moderator = await makeModerator();
  try {
    await test.step('two students report it through the API, the third through the dialog', async () => {
      for (const student of students.slice(0, 2)) {
        await student.api.call('POST /api/reports/:listingId', {
          params: { listingId: listing._id },
          body: { reason: 'spam_or_scam' },
        });
      }
      await signInBrowser(page, students[2]!, `/listing/${listing._id}`);
      await page.getByRole('button', { name: 'Report' }).click();
      const dialog = page.getByRole('dialog', { name: 'Report this listing' });
      // Without a reason the report's own schema answers, beside the reasons.
      await dialog.getByRole('button', { name: 'Send report' }).click();
      await expect(dialog.getByText('Choose a reason from the list')).toBeVisible();
      await dialog.getByLabel('Not a textbook').check();
      await dialog.getByLabel('Note for the moderators (optional)').fill('Sells answers');
      await expectNoAxeViolations(page);
      await screenshot(page, testInfo, 'report-dialog');
      await dialog.getByRole('button', { name: 'Send report' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'moderators' })).toBeVisible();
    });

    await test.step('it is gone from search', async () => {
      await page.goto(`/search?searchTerm=${encodeURIComponent(name)}`);
      await expect(page.getByText('No listing found!')).toBeVisible();
    });

    await test.step('its seller asks for a review, from the listing and from My listings', async () => {
      await page.context().clearCookies();
      await signInBrowser(page, seller, `/listing/${listing._id}`);
      await expect(page.getByText(/Hidden after reports/)).toBeVisible();
      const request = page.getByRole('button', { name: `Request review of ${name}` });
      await request.focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('status').filter({ hasText: 'look at it first' })).toBeVisible();
      await expectNoAxeViolations(page);
      await screenshot(page, testInfo, 'request-review');
      await page.goto('/profile');
      const moderated = page.getByRole('region', { name: 'With the moderators' });
      await moderated.getByRole('button', { name: `Request review of ${name}` }).click();
      // Asking twice is harmless: the same answer, the first place in the queue kept.
      await expect(moderated.getByRole('status')).toHaveText(/look at it first/);
      await screenshot(page, testInfo, 'request-review-my-listings');
    });

    await test.step('the moderator removes it from the moderation page', async () => {
      await page.context().clearCookies();
      await signInBrowser(page, moderator, '/moderation');
      const item = page.getByRole('listitem').filter({ hasText: name });
      await expect(item.getByText('Sells answers')).toBeVisible();
      await expect(item.getByText(/^Review requested/)).toBeVisible();
      await expect(item.getByText('3 reports, 3 counting toward the automatic hide')).toBeVisible();
      await expect(item.getByText('(counts toward the hide)')).toHaveCount(3);
      await expectNoAxeViolations(page);
      await screenshot(page, testInfo, 'moderation');
      await item.getByLabel(/Reason/).fill('Selling answer keys is against the campus rules.');
      await item.getByRole('button', { name: `Remove ${name}` }).click();
      await expect(page.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
      const log = page.getByRole('region', { name: 'Audit log' });
      await expect(log.getByText('remove').first()).toBeVisible();
    });

    await test.step('a removal made by mistake is restored from the audit log', async () => {
      const log = page.getByRole('region', { name: 'Audit log' });
      const line = log.getByRole('listitem').filter({ hasText: `removed listing ${listing._id}` });
      await line.getByRole('button', { name: `Restore listing ${listing._id}` }).click();
      await expect(
        log.getByRole('listitem').filter({ hasText: `restored listing ${listing._id}` }),
      ).toBeVisible();
      // The removal is no longer the listing's latest line: no second Restore.
      await expect(log.getByRole('button', { name: `Restore listing ${listing._id}` })).toHaveCount(
        0,
      );
      await screenshot(page, testInfo, 'moderation-restored');
      const restored = await seller.api.call('GET /api/listing/get/:id', {
        params: { id: listing._id },
      });
      expect(restored).toMatchObject({ status: 'active' });
    });

    await test.step("the seller's mail says why", async () => {
      const mail = await waitForMail(seller.email, /was removed/);
      expect(mail.text).toContain('Selling answer keys is against the campus rules.');
    });
  } finally {
    await deleteUser(moderator);
  }
});

test('a seller who deletes a reported listing leaves it with the moderators, marked so', async ({
  page,
  makeUser,
}, testInfo) => {
  const seller = await makeUser('seller');
  const name = `erased evidence ${seller.lastName.slice(-5).toLowerCase()}`;
  const listing = await createListing(seller, { name, courseNumber: '101' });
  const reporter = await makeUser('reporter');
  const moderator = await makeModerator();
  try {
    await reporter.api.call('POST /api/reports/:listingId', {
      params: { listingId: listing._id },
      body: { reason: 'spam_or_scam' },
    });
    await seller.api.call('DELETE /api/listing/delete/:id', { params: { id: listing._id } });
    await signInBrowser(page, moderator, '/moderation');
    const item = page.getByRole('listitem').filter({ hasText: name });
    await expect(item.getByText(/^Deleted by the seller/)).toBeVisible();
    await expect(
      item.getByRole('list', { name: `Seller's deletes of ${name}` }).getByText(/while reported/),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, 'moderation-seller-deleted');
    await item.getByRole('button', { name: `Dismiss reports on ${name}` }).click();
    await expect(page.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
  } finally {
    await deleteUser(moderator);
  }
});

test('a suspended seller cannot sign in', async ({ page, makeUser }) => {
  const seller = await makeUser('seller');
  const moderator = await makeModerator();
  try {
    await moderator.api.call('POST /api/moderation/users/:userId/suspend', {
      params: { userId: seller.id },
      body: { reason: 'Scam reports' },
    });
    await page.goto('/sign-in');
    await page.getByLabel('Email address').fill(seller.email);
    await page.getByLabel('Password', { exact: true }).fill(seller.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText(/suspended by the campus moderators/)).toBeVisible();
    // Unsuspended so the fixture can delete the account.
    await moderator.api.call('POST /api/moderation/users/:userId/unsuspend', {
      params: { userId: seller.id },
    });
  } finally {
    await deleteUser(moderator);
  }
});
