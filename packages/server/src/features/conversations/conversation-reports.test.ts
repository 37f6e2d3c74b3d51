import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf, type ApiCallOptions } from '@campus-books/common/call-route';
import { conversationReports } from '../../db/conversations.schema';
import { moderationLog } from '../../db/moderation.schema';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { apiCaller, routeCaller } from '../../../test/api-caller';
import { createListingAs } from '../../../test/listing-fixtures';
import { mailsTo } from '../../../test/outbox';

const MODERATOR = 'conversation-moderator@richmond.edu';

/**
 * A participant reports a conversation; the moderators may then read it (each read logged) until
 * they dismiss the reports, and never a conversation nobody reported.
 */
describe(`conversation reports (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let moderator: TestUser;
  beforeAll(async () => {
    t = await createTestApp({
      ...GENEROUS_LIMITS,
      RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
      RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
      MODERATOR_EMAILS: MODERATOR,
    });
    moderator = await createUser(t, { email: MODERATOR });
  });
  afterAll(() => t.close());

  // Raw requests for the bodies no typed call sends; the typed caller for the rest.
  const call = apiCaller(() => t);
  const route = routeCaller(() => t);
  type ReportBody = ApiCallOptions<'POST /api/conversations/:id/report'>['body'];
  const report = (user: TestUser, id: string, body: ReportBody) =>
    route('POST /api/conversations/:id/report', { as: user, params: { id }, body });
  const readReported = (user: TestUser | null, id: string) =>
    route('GET /api/moderation/conversations/:id', { as: user, params: { id } });
  const dismiss = (user: TestUser | null, id: string) =>
    route('POST /api/moderation/conversations/:id/dismiss', { as: user, params: { id } });
  const queueOf = (user: TestUser | null) =>
    route('GET /api/moderation/conversations', { as: user });

  async function conversation(text = 'Hello there') {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const listingId = (await createListingAs(t, seller, { name: 'Organic Chemistry' }))._id;
    const res = await route('POST /api/conversations', { as: buyer, body: { listingId, text } });
    return { seller, buyer, id: dataOf(res).conversationId };
  }

  const logOf = async (conversationId: string) =>
    (
      await t.database.db
        .select()
        .from(moderationLog)
        .where(eq(moderationLog.conversationId, conversationId))
    ).map((r) => r.action);

  it('lets either participant report once; moderators are mailed', async () => {
    const c = await conversation();
    const first = await report(c.seller, c.id, {
      reason: 'harassment',
      note: 'Keeps writing at night',
    });
    expect(first.status).toBe(201);
    const again = await report(c.seller, c.id, { reason: 'other' });
    expect(again.status).toBe(409);
    expect(errorOf(again).message).toMatch(/already reported/);
    expect((await report(c.buyer, c.id, { reason: 'spam_or_scam' })).status).toBe(201);
    const mails = await mailsTo(t, MODERATOR);
    expect(mails.some((m) => m.subject.includes('Organic Chemistry'))).toBe(true);
    expect(mails.every((m) => !m.text.includes('Hello there'))).toBe(true);
  });

  it('refuses bad bodies with the text rule, and answers 404 to anyone outside the conversation', async () => {
    const c = await conversation();
    const stranger = await createUser(t);
    for (const body of [
      {},
      { reason: 'nope' },
      { reason: 'other', note: 'a\u202Eb' },
      { reason: 'other', note: 'x'.repeat(1001) },
    ]) {
      const res = await call(c.buyer, 'POST', `/api/conversations/${c.id}/report`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    for (const id of [c.id, 'not-an-id', '00000000-0000-4000-8000-000000000000']) {
      expect((await report(stranger, id, { reason: 'other' })).status).toBe(404);
    }
    expect((await call(null, 'POST', `/api/conversations/${c.id}/report`, {})).statusCode).toBe(
      401,
    );
    const rows = await t.database.db
      .select()
      .from(conversationReports)
      .where(eq(conversationReports.conversationId, c.id));
    expect(rows).toHaveLength(0);
  });

  it('makes one report of 25 parallel copies', async () => {
    const c = await conversation();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => report(c.buyer, c.id, { reason: 'other' })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(24);
    const rows = await t.database.db
      .select()
      .from(conversationReports)
      .where(eq(conversationReports.conversationId, c.id));
    expect(rows).toHaveLength(1);
  });

  it('keeps a conversation nobody reported unreadable, even to moderators', async () => {
    const c = await conversation('Secret words');
    const read = await readReported(moderator, c.id);
    expect(read.status).toBe(404);
    expect(JSON.stringify(read)).not.toContain('Secret words');
    expect((await dismiss(moderator, c.id)).status).toBe(404);
    const queue = dataOf(await queueOf(moderator));
    expect(queue.conversations.map((q) => q.id)).not.toContain(c.id);
    expect(await logOf(c.id)).toEqual([]);
  });

  it('refuses the moderator routes to students (403) and signed-out visitors (401)', async () => {
    const c = await conversation();
    await report(c.buyer, c.id, { reason: 'other' });
    const moderatorRoutes = {
      queue: queueOf,
      read: (user: TestUser | null) => readReported(user, c.id),
      dismiss: (user: TestUser | null) => dismiss(user, c.id),
    };
    for (const [what, send] of Object.entries(moderatorRoutes)) {
      expect((await send(c.buyer)).status, what).toBe(403);
      expect((await send(null)).status, what).toBe(401);
    }
    expect(await logOf(c.id)).toEqual([]);
  });

  it('lists, reads (logged, every read) and dismisses a reported conversation', async () => {
    const c = await conversation('You will regret this');
    await route('POST /api/conversations/:id/messages', {
      as: c.seller,
      params: { id: c.id },
      body: { text: 'Please stop' },
    });
    await report(c.seller, c.id, { reason: 'harassment', note: 'Threats' });

    const queue = dataOf(await queueOf(moderator));
    const item = queue.conversations.find((q) => q.id === c.id)!;
    expect(item.listing.name).toBe('Organic Chemistry');
    expect(item.buyer).toEqual({ id: c.buyer.id, username: c.buyer.username, suspended: false });
    expect(item.reports).toEqual([
      expect.objectContaining({ by: 'seller', reason: 'harassment', note: 'Threats' }),
    ]);
    expect(JSON.stringify(queue)).not.toContain('You will regret this');
    expect(await logOf(c.id)).toEqual([]);

    for (let i = 0; i < 2; i += 1) {
      const read = await readReported(moderator, c.id);
      expect(read.status).toBe(200);
      const thread = dataOf(read);
      expect(thread.events.map((e) => [e.author, e.body])).toEqual([
        ['buyer', 'You will regret this'],
        ['seller', 'Please stop'],
      ]);
    }
    expect(await logOf(c.id)).toEqual(['read_conversation', 'read_conversation']);

    // Suspending the buyer (the moderation routes' suspend): the moderators still see the
    // messages, marked hidden from the seller.
    await route('POST /api/moderation/users/:userId/suspend', {
      as: moderator,
      params: { userId: c.buyer.id },
      body: { reason: 'Threats in a conversation' },
    });
    const after = dataOf(await readReported(moderator, c.id));
    expect(after.buyer.suspended).toBe(true);
    expect(after.events[0]).toMatchObject({ body: 'You will regret this', hiddenFromOthers: true });

    expect((await dismiss(moderator, c.id)).status).toBe(200);
    expect((await dismiss(moderator, c.id)).status).toBe(409);
    // Private again: no read once the reports are dismissed.
    expect((await readReported(moderator, c.id)).status).toBe(404);
    expect(await logOf(c.id)).toEqual([
      'read_conversation',
      'read_conversation',
      'read_conversation',
      'dismiss_conversation',
    ]);
    const log = dataOf(await route('GET /api/moderation/log', { as: moderator }));
    expect(log.find((e) => e.action === 'dismiss_conversation')?.conversationId).toBe(c.id);
  });

  it('dismisses once when 25 moderator copies arrive at once', async () => {
    const c = await conversation();
    await report(c.buyer, c.id, { reason: 'other' });
    const answers = await Promise.all(Array.from({ length: 25 }, () => dismiss(moderator, c.id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(24);
    expect(await logOf(c.id)).toEqual(['dismiss_conversation']);
  });
});
