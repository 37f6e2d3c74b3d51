import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import type { ConversationEvent } from '@campus-books/common/conversation.schemas';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import { routeCaller } from '../../../test/api-caller';
import { createUser, TEST_ENGINE, type TestApp, type TestUser } from '../../../test/helpers';
import { createListingAs } from '../../../test/listing-fixtures';
import { createAppOn, openSharedDatabase } from '../../../test/shared-database';
import { openSse, type SseStream } from '../../../test/support/sse-client';
import { inArray } from 'drizzle-orm';
import { conversationEvents } from '../../db/conversations.schema';
import { insertEvent } from './conversations.repository';
import { hubOf } from './stream.routes';

const ENV = {
  ...GENEROUS_LIMITS,
  RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
  RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
  STREAM_HEARTBEAT_MS: '200',
};

/**
 * Live events over Server-Sent Events, on two app servers sharing one database (PostgreSQL: two
 * pools, two LISTEN connections; PGlite: one process, the same handle twice).
 */
describe(`conversation event streams (${TEST_ENGINE})`, () => {
  let shared: Awaited<ReturnType<typeof openSharedDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let origin: string;
  let seller: TestUser;
  let buyer: TestUser;
  let stranger: TestUser;
  let conversationId: string;
  const open: SseStream[] = [];

  beforeAll(async () => {
    shared = await openSharedDatabase();
    a = await createAppOn(shared.first, ENV);
    b = await createAppOn(shared.second, ENV);
    origin = await a.app.listen({ port: 0, host: '127.0.0.1' });
    seller = await createUser(a);
    buyer = await createUser(a);
    stranger = await createUser(a);
    const listingId = (await createListingAs(a, seller))._id;
    conversationId = dataOf(await start(b, buyer, listingId, 'First')).conversationId;
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    await a?.close();
    await b?.close();
    await shared?.close();
  });

  /** The typed caller of one of the two servers. */
  const on = (t: TestApp) => routeCaller(() => t);
  const start = (t: TestApp, user: TestUser, listingId: string, text: string) =>
    on(t)('POST /api/conversations', { as: user, body: { listingId, text } });
  const say = async (t: TestApp, user: TestUser, text: string) => {
    const res = await on(t)('POST /api/conversations/:id/messages', {
      as: user,
      params: { id: conversationId },
      body: { text },
    });
    expect(res.status).toBe(201);
    return dataOf(res).event;
  };
  async function stream(user: TestUser, headers: Record<string, string> = {}) {
    const s = await openSse(`${origin}/api/conversations/events`, {
      cookie: user.cookie,
      ...headers,
    });
    open.push(s);
    return s;
  }
  const eventOf = async (s: SseStream) => {
    const message = await s.next();
    expect(message.event).toBe('conversation');
    return { id: message.id!, event: JSON.parse(message.data) as ConversationEvent };
  };

  it('delivers a message sent through the other server to both participants, never to others', async () => {
    const toBuyer = await stream(buyer, { 'accept-encoding': 'gzip, br' });
    expect(toBuyer.status).toBe(200);
    expect(toBuyer.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(toBuyer.headers.get('content-encoding')).toBeNull();
    expect(toBuyer.headers.get('x-accel-buffering')).toBe('no');
    const toSeller = await stream(seller);
    const toStranger = await stream(stranger);

    const sent = await say(b, seller, 'Yes, still available');
    const got = await eventOf(toBuyer);
    expect(got.event).toMatchObject({
      id: sent.id,
      conversationId,
      kind: 'message',
      author: 'seller',
      body: 'Yes, still available',
    });
    expect((await eventOf(toSeller)).event.id).toBe(sent.id);

    // The stranger's first event is one of their own conversation's, not the message above.
    const other = (await createListingAs(a, seller))._id;
    await start(b, stranger, other, 'Mine');
    expect((await eventOf(toStranger)).event).toMatchObject({ body: 'Mine', author: 'buyer' });
    toBuyer.close();
    toSeller.close();
    toStranger.close();
  });

  it('resumes after Last-Event-ID with exactly what was missed, in order', async () => {
    const first = await stream(buyer);
    await say(b, seller, 'before the drop');
    const seen = await eventOf(first);
    first.close();
    const missed = [await say(b, seller, 'missed one'), await say(a, seller, 'missed two')];
    const again = await stream(buyer, { 'last-event-id': seen.id });
    const replayed = [await eventOf(again), await eventOf(again)];
    expect(replayed.map((r) => r.event.body)).toEqual(['missed one', 'missed two']);
    expect(replayed.map((r) => r.event.id)).toEqual(missed.map((m) => m.id));
    // Then live, and nothing twice: the next event is the new one.
    await say(b, seller, 'live again');
    expect((await eventOf(again)).event.body).toBe('live again');
    again.close();
  });

  it('carries offers and the listing’s system lines too', async () => {
    const s = await stream(seller);
    const offer = await on(b)('POST /api/conversations/:id/offers', {
      as: buyer,
      params: { id: conversationId },
      body: { amount: 5 },
    });
    expect(offer.status).toBe(201);
    expect((await eventOf(s)).event).toMatchObject({ kind: 'offer', amount: 5, author: 'buyer' });
    s.close();
  });

  it('sends heartbeats, and releases every stream and timer on close', async () => {
    const s = await stream(buyer);
    await expect.poll(() => s.comments(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(hubOf(a.app)!.streams).toBeGreaterThan(0);
    for (const stream of open) stream.close();
    await expect.poll(() => hubOf(a.app)!.streams, { timeout: 10_000 }).toBe(0);
    expect(hubOf(a.app)!.timers).toBe(0);
  });

  // PGlite runs one transaction at a time, so only PostgreSQL can commit events out of id order.
  it.skipIf(TEST_ENGINE === 'pglite')(
    'numbers events in commit order: a later id committed first streams first',
    async () => {
      // Another conversation: events of one conversation also wait for each other (its row lock).
      const listingId = (await createListingAs(a, seller))._id;
      const other = dataOf(await start(b, stranger, listingId, 'Hi')).conversationId;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let inserted!: () => void;
      const insertedFirst = new Promise<void>((resolve) => (inserted = resolve));
      const slow = shared.first.db.transaction(async (tx) => {
        const row = await insertEvent(tx, { conversationId, kind: 'message', body: 'slow' });
        inserted();
        await held;
        return row;
      });
      await insertedFirst;
      const fast = await insertEvent(shared.second.db, {
        conversationId: other,
        kind: 'message',
        body: 'fast',
      });
      release();
      const slowRow = await slow;
      expect(slowRow.id).toBeLessThan(fast.id);
      const rows = await shared.first.db
        .select({ id: conversationEvents.id, seq: conversationEvents.seq })
        .from(conversationEvents)
        .where(inArray(conversationEvents.id, [slowRow.id, fast.id]));
      const seqOf = (id: number) => rows.find((r) => r.id === id)!.seq!;
      expect(seqOf(fast.id)).toBeLessThan(seqOf(slowRow.id));
    },
  );

  it('refuses signed-out callers (401) and a bad cursor (400)', async () => {
    // Raw requests: the event stream is outside the route table (Server-Sent Events, not JSON).
    const anonymous = await a.app.inject({ url: '/api/conversations/events' });
    expect(anonymous.statusCode).toBe(401);
    const bad = await a.app.inject({
      url: '/api/conversations/events?after=abc',
      headers: { cookie: buyer.cookie },
    });
    expect(bad.statusCode).toBe(400);
    const unknown = await a.app.inject({
      url: '/api/conversations/events?userId=x',
      headers: { cookie: buyer.cookie },
    });
    expect(unknown.statusCode).toBe(400);
  });
});
