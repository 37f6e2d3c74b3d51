import { expect, signInBrowser, test } from '../../src/fixtures';
import { openEventStreams, recordEventStreams } from '../../src/event-streams';
import { expectNoAxeViolations, expectTapTarget, screenshot } from '../../src/page-check';
import { makeModerator } from '../../src/moderator';
import { createListing, deleteUser } from '../../src/users';

test('a seller reports a conversation from the thread; a moderator reads it (logged) and dismisses the report', async ({
  page,
  makeUser,
}, testInfo) => {
  const seller = await makeUser('rptseller');
  const buyer = await makeUser('rptbuyer');
  const tag = seller.lastName.slice(-5).toLowerCase();
  const listing = await createListing(seller, { name: `statistics ${tag}`, courseNumber: '201' });
  const sent = await buyer.api.call('POST /api/conversations', {
    body: { listingId: listing._id, text: `Pay me a deposit first ${tag}` },
  });
  const moderator = await makeModerator();
  try {
    await test.step('the seller reports it with the keyboard, in a labelled dialog', async () => {
      await signInBrowser(page, seller, `/messages/${sent.conversationId}`);
      const open = page.getByRole('button', { name: 'Report conversation' });
      await expectTapTarget(open);
      await open.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Report this conversation' });
      await expect(dialog).toBeVisible();
      const reason = dialog.getByLabel('Spam or scam');
      await reason.focus();
      await page.keyboard.press('Space');
      await expect(reason).toBeChecked();
      await dialog.getByLabel('Note for the moderators (optional)').fill('Asks for a deposit');
      await expectNoAxeViolations(page);
      await screenshot(page, testInfo, 'report-conversation-dialog');
      await dialog.getByRole('button', { name: 'Send report' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'moderators' })).toBeVisible();
    });

    await test.step('the moderator reads the messages only when asking, and the read is logged', async () => {
      await page.context().clearCookies();
      await signInBrowser(page, moderator, '/moderation');
      const section = page.getByRole('region', { name: 'Reported conversations' });
      const item = section.getByRole('listitem').filter({ hasText: `statistics ${tag}` });
      await expect(item.getByText('Asks for a deposit')).toBeVisible();
      await expect(item.getByText(`Pay me a deposit first ${tag}`)).toHaveCount(0);
      await item.getByRole('button', { name: /Read the messages/ }).click();
      await expect(item.getByText(`Pay me a deposit first ${tag}`)).toBeVisible();
      await expectNoAxeViolations(page);
      await screenshot(page, testInfo, 'reported-conversations');
      await page.reload();
      const log = page.getByRole('region', { name: 'Audit log' });
      await expect(log.getByText('read the reported conversation').first()).toBeVisible();
    });

    await test.step('dismissed, it leaves the queue', async () => {
      const section = page.getByRole('region', { name: 'Reported conversations' });
      const item = section.getByRole('listitem').filter({ hasText: `statistics ${tag}` });
      await item.getByRole('button', { name: /^Dismiss/ }).click();
      await expect(item).toHaveCount(0);
    });
  } finally {
    await deleteUser(moderator);
  }
});

test("a block turns the other student's open thread read-only live, and the unblock opens it again", async ({
  page,
  makeUser,
}) => {
  const seller = await makeUser('blkseller');
  const buyer = await makeUser('blkbuyer');
  const tag = seller.lastName.slice(-5).toLowerCase();
  const listing = await createListing(seller, { name: `geology ${tag}`, courseNumber: '110' });
  const sent = await buyer.api.call('POST /api/conversations', {
    body: { listingId: listing._id, text: 'Can we meet today?' },
  });
  await recordEventStreams(page);
  await signInBrowser(page, buyer, `/messages/${sent.conversationId}`);
  const messages = page.getByRole('log', { name: 'Messages' });
  const composer = page.getByRole('textbox', { name: 'Message', exact: true });
  await expect(messages.getByText('Can we meet today?')).toBeVisible();
  await expect(composer).toBeVisible();
  await expect.poll(() => openEventStreams(page)).toBe(1);

  // No reload: the stream carries the block's line, and the thread reads the conversation again.
  await seller.api.call('POST /api/blocks/:userId', { params: { userId: buyer.id } });
  await expect(messages.getByText('This conversation is closed')).toBeVisible();
  await expect(page.getByText(/This conversation is read-only/)).toBeVisible();
  await expect(composer).toHaveCount(0);

  await seller.api.call('DELETE /api/blocks/:userId', { params: { userId: buyer.id } });
  await expect(messages.getByText('This conversation is open again')).toBeVisible();
  await expect(composer).toBeVisible();
});
