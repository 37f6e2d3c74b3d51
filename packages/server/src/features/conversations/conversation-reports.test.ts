import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SentEvent } from '@campus-books/common/conversation.schemas';
import type {
  ModerationLogEntry,
  ReportedConversation,
  ReportedConversationThread,
} from '@campus-books/common/moderation.schemas';
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
import { apiCaller } from '../../../test/api-caller';
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

  const call = apiCaller(() => t);

  async function conversation(text = 'Hello there') {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const listingId = (await createListingAs(t, seller, { name: 'Organic Chemistry' }))._id;
    const res = await call(buyer, 'POST', '/api/conversations', { listingId, text });
    return { seller, buyer, id: (res.json() as SentEvent).conversationId };
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
    const first = await call(c.seller, 'POST', `/api/conversations/${c.id}/report`, {
      reason: 'harassment',
      note: 'Keeps writing at night',
    });
    expect(first.statusCode).toBe(201);
    const again = await call(c.seller, 'POST', `/api/conversations/${c.id}/report`, {
      reason: 'other',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already reported/);
    expect(
      (await call(c.buyer, 'POST', `/api/conversations/${c.id}/report`, { reason: 'spam_or_scam' }))
        .statusCode,
    ).toBe(201);
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
      const res = await call(stranger, 'POST', `/api/conversations/${id}/report`, {
        reason: 'other',
      });
      expect(res.statusCode).toBe(404);
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
      Array.from({ length: 25 }, () =>
        call(c.buyer, 'POST', `/api/conversations/${c.id}/report`, { reason: 'other' }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(24);
    const rows = await t.database.db
      .select()
      .from(conversationReports)
      .where(eq(conversationReports.conversationId, c.id));
    expect(rows).toHaveLength(1);
  });

  it('keeps a conversation nobody reported unreadable, even to moderators', async () => {
    const c = await conversation('Secret words');
    const read = await call(moderator, 'GET', `/api/moderation/conversations/${c.id}`);
    expect(read.statusCode).toBe(404);
    expect(read.body).not.toContain('Secret words');
    expect(
      (await call(moderator, 'POST', `/api/moderation/conversations/${c.id}/dismiss`)).statusCode,
    ).toBe(404);
    const queue = (await call(moderator, 'GET', '/api/moderation/conversations')).json() as {
      conversations: ReportedConversation[];
    };
    expect(queue.conversations.map((q) => q.id)).not.toContain(c.id);
    expect(await logOf(c.id)).toEqual([]);
  });

  it('refuses the moderator routes to students (403) and signed-out visitors (401)', async () => {
    const c = await conversation();
    await call(c.buyer, 'POST', `/api/conversations/${c.id}/report`, { reason: 'other' });
    for (const [method, url] of [
      ['GET', '/api/moderation/conversations'],
      ['GET', `/api/moderation/conversations/${c.id}`],
      ['POST', `/api/moderation/conversations/${c.id}/dismiss`],
    ] as const) {
      expect((await call(c.buyer, method, url)).statusCode, url).toBe(403);
      expect((await call(null, method, url)).statusCode, url).toBe(401);
    }
    expect(await logOf(c.id)).toEqual([]);
  });

  it('lists, reads (logged, every read) and dismisses a reported conversation', async () => {
    const c = await conversation('You will regret this');
    await call(c.seller, 'POST', `/api/conversations/${c.id}/messages`, { text: 'Please stop' });
    await call(c.seller, 'POST', `/api/conversations/${c.id}/report`, {
      reason: 'harassment',
      note: 'Threats',
    });

    const queue = (await call(moderator, 'GET', '/api/moderation/conversations')).json() as {
      conversations: ReportedConversation[];
    };
    const item = queue.conversations.find((q) => q.id === c.id)!;
    expect(item.listing.name).toBe('Organic Chemistry');
    expect(item.buyer).toEqual({ id: c.buyer.id, username: c.buyer.username, suspended: false });
    expect(item.reports).toEqual([
      expect.objectContaining({ by: 'seller', reason: 'harassment', note: 'Threats' }),
    ]);
    expect(JSON.stringify(queue)).not.toContain('You will regret this');
    expect(await logOf(c.id)).toEqual([]);

    for (let i = 0; i < 2; i += 1) {
      const read = await call(moderator, 'GET', `/api/moderation/conversations/${c.id}`);
      expect(read.statusCode).toBe(200);
      const thread = read.json() as ReportedConversationThread;
      expect(thread.events.map((e) => [e.author, e.body])).toEqual([
        ['buyer', 'You will regret this'],
        ['seller', 'Please stop'],
      ]);
    }
    expect(await logOf(c.id)).toEqual(['read_conversation', 'read_conversation']);

    // Suspending the buyer (the moderation routes' suspend): the moderators still see the
    // messages, marked hidden from the seller.
    await call(moderator, 'POST', `/api/moderation/users/${c.buyer.id}/suspend`, {
      reason: 'Threats in a conversation',
    });
    const after = (
      await call(moderator, 'GET', `/api/moderation/conversations/${c.id}`)
    ).json() as ReportedConversationThread;
    expect(after.buyer.suspended).toBe(true);
    expect(after.events[0]).toMatchObject({ body: 'You will regret this', hiddenFromOthers: true });

    const dismissed = await call(
      moderator,
      'POST',
      `/api/moderation/conversations/${c.id}/dismiss`,
    );
    expect(dismissed.statusCode).toBe(200);
    expect(
      (await call(moderator, 'POST', `/api/moderation/conversations/${c.id}/dismiss`)).statusCode,
    ).toBe(409);
    // Private again: no read once the reports are dismissed.
    expect((await call(moderator, 'GET', `/api/moderation/conversations/${c.id}`)).statusCode).toBe(
      404,
    );
    expect(await logOf(c.id)).toEqual([
      'read_conversation',
      'read_conversation',
      'read_conversation',
      'dismiss_conversation',
    ]);
    const log = (
      await call(moderator, 'GET', '/api/moderation/log')
    ).json() as ModerationLogEntry[];
    expect(log.find((e) => e.action === 'dismiss_conversation')?.conversationId).toBe(c.id);
  });

  it('dismisses once when 25 moderator copies arrive at once', async () => {
    const c = await conversation();
    await call(c.buyer, 'POST', `/api/conversations/${c.id}/report`, { reason: 'other' });
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        call(moderator, 'POST', `/api/moderation/conversations/${c.id}/dismiss`),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(24);
    expect(await logOf(c.id)).toEqual(['dismiss_conversation']);
  });
});
