import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf } from '@campus-books/common/call-route';
import type { SeenMark } from '@campus-books/common/conversation.schemas';
import { eq } from 'drizzle-orm';
import { createUser, TEST_ENGINE, type TestApp, type TestUser } from '../../../test/helpers';
import { routeCaller } from '../../../test/api-caller';
import { createListingAs } from '../../../test/listing-fixtures';
import { createAppOn, openSharedDatabase } from '../../../test/shared-database';
import { openSse, type SseStream } from '../../../test/support/sse-client';
import { conversationEvents } from '../../db/conversations.schema';
import { collectStudentData } from '../privacy/data-export';
import { GENEROUS_LIMITS } from '../../../test/accounts';

const LIMITS = {
  ...GENEROUS_LIMITS,
  RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
  RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
};

/**
 * "Seen": the other side's read mark in the conversation's answer and live (on two app servers
 * sharing one database), only while both students show read receipts; and a message sent twice
 * with one client id (a double tap) made once.
 */
describe(`read receipts and one message per client id (${TEST_ENGINE})`, () => {
  let shared: Awaited<ReturnType<typeof openSharedDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let origin: string;
  let seller: TestUser;
  let buyer: TestUser;
  const open: SseStream[] = [];

  beforeAll(async () => {
    shared = await openSharedDatabase();
    a = await createAppOn(shared.first, LIMITS);
    b = await createAppOn(shared.second, LIMITS);
    origin = await a.app.listen({ port: 0, host: '127.0.0.1' });
    seller = await createUser(a);
    buyer = await createUser(a);
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    await a?.close();
    await b?.close();
    await shared?.close();
  });

  const onA = routeCaller(() => a);
  const onB = routeCaller(() => b);
  const thread = async (user: TestUser, id: string) =>
    dataOf(await onA('GET /api/conversations/:id', { as: user, params: { id } }));
  const read = async (user: TestUser, id: string, upTo: number) =>
    dataOf(
      await onB('POST /api/conversations/:id/read', { as: user, params: { id }, body: { upTo } }),
    );
  const receipts = async (user: TestUser, readReceipts: boolean) =>
    dataOf(await onB('POST /api/conversations/receipts', { as: user, body: { readReceipts } }));
  async function newConversation(text = 'Is this still available?') {
    const listingId = (await createListingAs(a, seller))._id;
    const sent = dataOf(
      await onA('POST /api/conversations', { as: buyer, body: { listingId, text } }),
    );
    return { id: sent.conversationId, messageId: sent.event.id, listingId };
  }
  async function stream(user: TestUser) {
    const s = await openSse(`${origin}/api/conversations/events`, { cookie: user.cookie });
    open.push(s);
    return s;
  }

  it('shows the buyer when the seller has read, in the answer and live through the other server', async () => {
    const c = await newConversation();
    const before = await thread(buyer, c.id);
    expect(before.seenUpTo).toBe(0);
    expect(before.seenAt).toBeNull();

    const toBuyer = await stream(buyer);
    const toSeller = await stream(seller);
    await read(seller, c.id, c.messageId);
    const live = await toBuyer.next();
    expect(live.event).toBe('seen');
    expect(live.id).toBeUndefined();
    const mark = JSON.parse(live.data) as SeenMark;
    expect(mark).toMatchObject({ conversationId: c.id, seenUpTo: c.messageId });

    const after = await thread(buyer, c.id);
    expect(after.seenUpTo).toBe(c.messageId);
    expect(after.seenAt).toBe(mark.seenAt);
    // The inbox line carries it too; the seller's own view shows the buyer's mark (their message).
    const [line] = dataOf(
      await onA('GET /api/conversations', { as: buyer, query: { listingId: c.listingId } }),
    ).conversations;
    expect(line?.seenUpTo).toBe(c.messageId);
    expect((await thread(seller, c.id)).seenUpTo).toBe(c.messageId);

    // Reading again up to the same mark moves nothing and says nothing: the next thing the
    // buyer's stream carries is the seller's reply.
    await read(seller, c.id, c.messageId);
    const reply = dataOf(
      await onB('POST /api/conversations/:id/messages', {
        as: seller,
        params: { id: c.id },
        body: { text: 'Yes' },
      }),
    );
    const next = await toBuyer.next();
    expect(next.event).toBe('conversation');
    expect(JSON.parse(next.data)).toMatchObject({ id: reply.event.id });
    // The seller's stream got their own message, never a "Seen" of their own read.
    const own = await toSeller.next();
    expect(own.event).toBe('conversation');
    toBuyer.close();
    toSeller.close();
  });

  it('shows none either way once one of the two turns receipts off, live or not', async () => {
    expect(dataOf(await onA('GET /api/conversations/receipts', { as: seller })).readReceipts).toBe(
      true,
    );
    const off = await receipts(seller, false);
    expect(off).toMatchObject({ success: true, readReceipts: false });
    expect(dataOf(await onA('GET /api/conversations/receipts', { as: seller })).readReceipts).toBe(
      false,
    );
    const c = await newConversation('When could we meet?');

    // The seller turned them off: the buyer sees none of the seller's reads…
    const toBuyer = await stream(buyer);
    await read(seller, c.id, c.messageId);
    expect((await thread(buyer, c.id)).seenUpTo).toBeNull();
    expect((await thread(buyer, c.id)).seenAt).toBeNull();
    // …and the seller sees none of the buyer's (their own message, read by its author).
    expect((await thread(seller, c.id)).seenUpTo).toBeNull();
    // Nothing live: the next thing the buyer's stream carries is the seller's reply.
    const reply = dataOf(
      await onB('POST /api/conversations/:id/messages', {
        as: seller,
        params: { id: c.id },
        body: { text: 'Tomorrow at noon' },
      }),
    );
    const next = await toBuyer.next();
    expect(next.event).toBe('conversation');
    expect(JSON.parse(next.data)).toMatchObject({ id: reply.event.id });
    toBuyer.close();

    // The mark was kept: turned on again, "Seen" shows what was read meanwhile (the reply's
    // author has read up to it).
    await receipts(seller, true);
    expect((await thread(buyer, c.id)).seenUpTo).toBe(reply.event.id);
  });

  it('keeps the buyer’s choice in their data export', async () => {
    await receipts(buyer, false);
    const data = await collectStudentData(
      { db: a.database.db, now: () => new Date(), revealMs: 0 },
      buyer.id,
    );
    expect(data?.account.readReceipts).toBe(false);
    await receipts(buyer, true);
  });

  it('refuses a setting that is not a boolean (400)', async () => {
    const res = await a.app.inject({
      method: 'POST',
      url: '/api/conversations/receipts',
      headers: { cookie: buyer.cookie },
      payload: { readReceipts: 'no' },
    });
    expect(res.statusCode).toBe(400);
  });

  const messagesOf = (conversationId: string) =>
    a.database.db
      .select()
      .from(conversationEvents)
      .where(eq(conversationEvents.conversationId, conversationId));

  it('makes one message of a double tap, and of 25 copies at once, on either server', async () => {
    const c = await newConversation();
    const send = (clientId: string, i: number) =>
      (i % 2 ? onA : onB)('POST /api/conversations/:id/messages', {
        as: buyer,
        params: { id: c.id },
        body: { text: 'Would you take $30.00?', clientId },
      });
    const twice = randomUUID();
    const pair = await Promise.all([send(twice, 0), send(twice, 1)]);
    expect(pair.map((r) => r.status)).toEqual([201, 201]);
    expect(dataOf(pair[0]!).event.id).toBe(dataOf(pair[1]!).event.id);

    const many = randomUUID();
    const copies = await Promise.all(Array.from({ length: 25 }, (_, i) => send(many, i)));
    expect(new Set(copies.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(copies.map((r) => dataOf(r).event.id)).size).toBe(1);
    const rows = await messagesOf(c.id);
    expect(rows.filter((r) => r.clientId === twice)).toHaveLength(1);
    expect(rows.filter((r) => r.clientId === many)).toHaveLength(1);
    expect(rows).toHaveLength(3);
  });

  it('makes one conversation and one first message of 25 first taps at once', async () => {
    const listingId = (await createListingAs(a, seller))._id;
    const clientId = randomUUID();
    const copies = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        (i % 2 ? onA : onB)('POST /api/conversations', {
          as: buyer,
          body: { listingId, text: 'Is this still available?', clientId },
        }),
      ),
    );
    expect(new Set(copies.map((r) => r.status))).toEqual(new Set([201]));
    const ids = new Set(copies.map((r) => dataOf(r).conversationId));
    expect(ids.size).toBe(1);
    expect(await messagesOf([...ids][0]!)).toHaveLength(1);
  });

  it('refuses a client id used for another text or in another conversation (409), leaking nothing', async () => {
    const first = await newConversation();
    const second = await newConversation();
    const clientId = randomUUID();
    const sent = await onA('POST /api/conversations/:id/messages', {
      as: buyer,
      params: { id: first.id },
      body: { text: 'The first text', clientId },
    });
    expect(sent.status).toBe(201);
    const otherText = await onA('POST /api/conversations/:id/messages', {
      as: buyer,
      params: { id: first.id },
      body: { text: 'Another text', clientId },
    });
    expect(otherText.status).toBe(409);
    const elsewhere = await onA('POST /api/conversations/:id/messages', {
      as: buyer,
      params: { id: second.id },
      body: { text: 'The first text', clientId },
    });
    expect(elsewhere.status).toBe(409);
    expect(JSON.stringify(errorOf(elsewhere))).not.toContain(first.id);
    // Another student's same client id is theirs: no collision.
    const sellerSent = await onA('POST /api/conversations/:id/messages', {
      as: seller,
      params: { id: first.id },
      body: { text: 'The first text', clientId },
    });
    expect(sellerSent.status).toBe(201);
    expect(await messagesOf(second.id)).toHaveLength(1);
  });
});
