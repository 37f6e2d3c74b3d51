import { expect, signInBrowser, test } from '../../src/fixtures';
import { expectNoAxeViolations, screenshot } from '../../src/page-check';
import { linkIn, mailsTo, VERIFY_SUBJECT, waitForMail } from '../../src/mail';
import { Api } from '../../src/api';
import { createListing, deleteUser, newStudent, type TestUser } from '../../src/users';

/** The campus moderator (MODERATOR_EMAILS in playwright.config.ts), deleted after each test. */
async function makeModerator(): Promise<TestUser> {
  const student = { ...newStudent('moderator'), email: 'moderator@e2e.campus.edu' };
  const api = await Api.open();
  // The address is reused by every test: only a verification mail sent after this point counts.
  const earlier = await mailsTo(student.email);
  await api.post('/api/auth/signup', student);
  const mail = await waitForMail(student.email, VERIFY_SUBJECT, { notIn: earlier });
  await api.post('/api/auth/verify-email', {
    token: linkIn(mail, '/verify-email/').split('/').pop(),
  });
  const me = await api.signIn(student.email, student.password);
  return { ...student, id: me._id, api };
}

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
        await student.api.post(`/api/reports/${listing._id}`, { reason: 'spam_or_scam' });
      }
      await signInBrowser(page, students[2]!, `/listing/${listing._id}`);
      await page.getByRole('button', { name: 'Report' }).click();
      const dialog = page.getByRole('dialog', { name: 'Report this listing' });
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

    await test.step('the moderator removes it from the moderation page', async () => {
      await page.context().clearCookies();
      await signInBrowser(page, moderator, '/moderation');
      const item = page.getByRole('listitem').filter({ hasText: name });
      await expect(item.getByText('Sells answers')).toBeVisible();
      await expectNoAxeViolations(page);
      await screenshot(page, testInfo, 'moderation');
      await item.getByLabel(/Reason/).fill('Selling answer keys is against the campus rules.');
      await item.getByRole('button', { name: `Remove ${name}` }).click();
      await expect(page.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
      const log = page.getByRole('region', { name: 'Audit log' });
      await expect(log.getByText('remove').first()).toBeVisible();
    });

    await test.step("the seller's mail says why", async () => {
      const mail = await waitForMail(seller.email, /was removed/);
      expect(mail.text).toContain('Selling answer keys is against the campus rules.');
    });
  } finally {
    await deleteUser(moderator);
  }
});

test('a suspended seller cannot sign in', async ({ page, makeUser }) => {
  const seller = await makeUser('seller');
  const moderator = await makeModerator();
  try {
    await moderator.api.post(`/api/moderation/users/${seller.id}/suspend`, {
      reason: 'Scam reports',
    });
    await page.goto('/sign-in');
    await page.getByLabel('Email address').fill(seller.email);
    await page.getByLabel('Password', { exact: true }).fill(seller.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText(/suspended by the campus moderators/)).toBeVisible();
    // Unsuspended so the fixture can delete the account.
    await moderator.api.post(`/api/moderation/users/${seller.id}/unsuspend`);
  } finally {
    await deleteUser(moderator);
  }
});
