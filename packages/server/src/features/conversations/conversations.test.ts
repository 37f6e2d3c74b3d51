import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRoute, dataOf, errorOf } from '@campus-books/common/call-route';
import { CONVERSATION_LIMITS, GENEROUS_LIMITS } from '../../../test/accounts';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { appInjector, routeCaller } from '../../../test/api-caller';
import { createListingAs, listingBody } from '../../../test/listing-fixtures';
import { users } from '../../db/schema';
import { eq } from 'drizzle-orm';

describe(`conversations and messages (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  let buyer: TestUser;
  beforeAll(async () => {
    t = await createTestApp(CONVERSATION_LIMITS);
    seller = await createUser(t);
    buyer = await createUser(t);
  });
  afterAll(() => t.close());

  const route = routeCaller(() => t);
  const start = (user: TestUser | null, listingId: string, text: string) =>
    route('POST /api/conversations', { as: user, body: { listingId, text } });
  const inbox = async (user: TestUser, listingId?: string) =>
    dataOf(await route('GET /api/conversations', { as: user, query: { listingId } })).conversations;
  const thread = async (user: TestUser, id: string) =>
    dataOf(await route('GET /api/conversations/:id', { as: user, params: { id } }));
  const unread = async (user: TestUser) =>
    dataOf(await route('GET /api/conversations/unread', { as: user })).count;
  const write = (user: TestUser, id: string, text: string) =>
    route('POST /api/conversations/:id/messages', { as: user, params: { id }, body: { text } });

  it('opens one conversation per listing and buyer; later messages go to it; both inboxes show it', async () => {
    const listing = await createListingAs(t, seller, {
      name: 'Organic Chemistry',
      regularPrice: 40,
    });
    const first = await start(buyer, listing._id, 'Hi, is it still available?');
    expect(first.status).toBe(201);
    const sent = dataOf(first);
    expect(sent.event).toMatchObject({
      kind: 'message',
      author: 'buyer',
      body: 'Hi, is it still available?',
    });
    const again = dataOf(await start(buyer, listing._id, 'Hello?'));
    expect(again.conversationId).toBe(sent.conversationId);

    const [buyerLine] = await inbox(buyer);
    expect(buyerLine).toMatchObject({
      id: sent.conversationId,
      role: 'buyer',
      listing: { id: listing._id, name: 'Organic Chemistry', price: 40, pendingUntil: null },
      other: { id: seller.id, username: seller.username },
      unread: false,
    });
    expect(buyerLine!.listing.cover).toBe(listing.imageUrls[0]);
    const [sellerLine] = await inbox(seller, listing._id);
    expect(sellerLine).toMatchObject({
      role: 'seller',
      other: { username: buyer.username },
      unread: true,
    });
    expect(await unread(seller)).toBe(1);

    const reply = await write(seller, sent.conversationId, 'Yes! Library at 5?');
    expect(reply.status).toBe(201);
    const view = await thread(buyer, sent.conversationId);
    expect(view.events.map((e) => [e.author, e.body])).toEqual([
      ['buyer', 'Hi, is it still available?'],
      ['buyer', 'Hello?'],
      ['seller', 'Yes! Library at 5?'],
    ]);
    // Answering read everything before; the buyer has the reply to read until they say so.
    expect(await unread(seller)).toBe(0);
    expect(await unread(buyer)).toBe(1);
    const last = view.events.at(-1)!.id;
    const read = await route('POST /api/conversations/:id/read', {
      as: buyer,
      params: { id: sent.conversationId },
      body: { upTo: last },
    });
    expect(read.status).toBe(200);
    expect(await unread(buyer)).toBe(0);
    // Nothing in any answer names an e-mail address.
    const answers = JSON.stringify([view, await inbox(buyer), await inbox(seller)]);
    expect(answers).not.toContain(seller.email);
    expect(answers).not.toContain(buyer.email);
  });

  it('orders the inbox by the latest event', async () => {
    const a = await createListingAs(t, seller, { name: 'Older Thread' });
    const b = await createListingAs(t, seller, { name: 'Newer Thread' });
    const ca = dataOf(await start(buyer, a._id, 'about a'));
    await start(buyer, b._id, 'about b');
    expect((await inbox(buyer)).slice(0, 2).map((c) => c.listing.name)).toEqual([
      'Newer Thread',
      'Older Thread',
    ]);
    await write(seller, ca.conversationId, 'up');
    expect((await inbox(buyer))[0]!.listing.name).toBe('Older Thread');
  });

  it("gives each inbox line its latest event (a message's first 140 characters) and the offer waiting", async () => {
    const listing = await createListingAs(t, seller, { name: 'Inbox Line', regularPrice: 30 });
    const writer = await createUser(t);
    const long = `${'w'.repeat(200)} end`;
    const c = dataOf(await start(writer, listing._id, long));
    const line = async (user: TestUser) =>
      (await inbox(user)).find((item) => item.id === c.conversationId)!;
    expect((await line(seller)).lastEvent).toEqual({
      kind: 'message',
      author: 'buyer',
      preview: 'w'.repeat(140),
      amount: null,
    });
    expect((await line(seller)).openOffer).toBeNull();
    await route('POST /api/conversations/:id/offers', {
      as: writer,
      params: { id: c.conversationId },
      body: { amount: 25 },
    });
    expect(await line(writer)).toMatchObject({
      lastEvent: { kind: 'offer', author: 'buyer', preview: null, amount: 25 },
      openOffer: { amount: 25, from: 'buyer' },
    });
    await write(seller, c.conversationId, 'ok');
    // A suspended student's message is not the line's latest for the other side.
    await write(writer, c.conversationId, 'spam');
    expect((await line(seller)).lastEvent).toMatchObject({ author: 'buyer', preview: 'spam' });
    await t.database.db
      .update(users)
      .set({ suspendedAt: new Date() })
      .where(eq(users.id, writer.id));
    expect((await line(seller)).lastEvent).toMatchObject({ author: 'seller', preview: 'ok' });
  });

  it('applies the text rule: 1 to 2,000 characters, NFC, no controls, bidi or invisible-only text', async () => {
    const listing = await createListingAs(t, seller);
    const refused = async (text: unknown) => {
      const res = await start(buyer, listing._id, text as string);
      expect(res.status).toBe(400);
      return errorOf(res).message;
    };
    expect(await refused('')).toMatch(/Write a message/);
    expect(await refused('\u200B\u200B ')).toMatch(/Write a message/);
    expect(await refused('x'.repeat(2001))).toMatch(/at most 2,000/);
    expect(await refused('evil \u202E txt')).toMatch(/text-direction/);
    expect(await refused('bell \u0007')).toMatch(/control characters/);
    expect(await refused(42)).toMatch(/Write a message/);
    const ok = dataOf(await start(buyer, listing._id, '  Cafe\u0301\nsee https://evil.example  '));
    // Stored as plain text, composed and trimmed; a link stays text (the client never links it).
    expect(ok.event.body).toBe('Café\nsee https://evil.example');
    expect((await start(buyer, listing._id, 'y'.repeat(2000))).status).toBe(201);
  });

  it('refuses the seller on their own listing, hidden and unknown listings (404), sold ones (409)', async () => {
    const listing = await createListingAs(t, seller);
    expect((await start(seller, listing._id, 'me')).status).toBe(403);
    expect((await start(buyer, '0b8e5a62-3c1f-4d8e-9a57-1f2e3d4c5b6a', 'hi')).status).toBe(404);
    expect((await start(buyer, 'not-an-id', 'hi')).status).toBe(404);
    const sold = await createListingAs(t, seller);
    await route('POST /api/listing/mark-as-sold/:id', { as: seller, params: { id: sold._id } });
    const res = await start(buyer, sold._id, 'still there?');
    expect(res.status).toBe(409);
    expect(errorOf(res).message).toMatch(/no longer available/);
    expect((await start(null, listing._id, 'x')).status).toBe(401);
    const unverified = await createUser(t, { verified: false });
    expect((await start(unverified, listing._id, 'x')).status).toBe(403);
  });

  it('writes system lines for price changes, sold and relisted, in every conversation of the listing', async () => {
    const listing = await createListingAs(t, seller, { regularPrice: 30 });
    const other = await createUser(t);
    const c1 = dataOf(await start(buyer, listing._id, 'one'));
    const c2 = dataOf(await start(other, listing._id, 'two'));
    const update = await route('POST /api/listing/update/:id', {
      as: seller,
      params: { id: listing._id },
      body: { ...listingBody({ imageUrls: listing.imageUrls }), regularPrice: 25.5 },
    });
    expect(update.status).toBe(200);
    const asSeller = { as: seller, params: { id: listing._id } };
    await route('POST /api/listing/mark-as-sold/:id', asSeller);
    await route('POST /api/listing/relist/:id', asSeller);
    for (const [user, id] of [
      [buyer, c1.conversationId],
      [other, c2.conversationId],
    ] as const) {
      const lines = (await thread(user, id)).events.filter((e) => e.kind !== 'message');
      expect(lines.map((e) => [e.kind, e.amount, e.author])).toEqual([
        ['price', 25.5, null],
        ['sold', null, null],
        ['relisted', null, null],
      ]);
    }
  });

  it("hides a suspended student's messages from the other side, and shows a deleted account as such", async () => {
    const listing = await createListingAs(t, seller);
    const suspended = await createUser(t);
    const c = dataOf(await start(suspended, listing._id, 'spam spam'));
    await t.database.db
      .update(users)
      .set({ suspendedAt: new Date() })
      .where(eq(users.id, suspended.id));
    expect((await thread(seller, c.conversationId)).events).toEqual([]);
    await t.database.db.update(users).set({ suspendedAt: null }).where(eq(users.id, suspended.id));

    const leaving = await createUser(t);
    const d = dataOf(await start(leaving, listing._id, 'bye soon'));
    await t.database.db.delete(users).where(eq(users.id, leaving.id));
    const view = await thread(seller, d.conversationId);
    expect(view.other.username).toBeNull();
    expect(view.readOnly).toBe(true);
    expect(view.events[0]).toMatchObject({ author: null, deletedAuthor: true, body: 'bye soon' });
    expect((await write(seller, d.conversationId, 'hi')).status).toBe(409);
  });

  it('limits new conversations per hour and messages per minute with a 429 and a clear message', async () => {
    const limited = await createTestApp({
      ...GENEROUS_LIMITS,
      RATE_LIMIT_CONVERSATIONS_PER_HOUR: '2',
      RATE_LIMIT_MESSAGES_PER_MINUTE: '4',
    });
    try {
      const s = await createUser(limited);
      const b = await createUser(limited);
      const ids = [];
      for (let i = 0; i < 3; i += 1) ids.push((await createListingAs(limited, s))._id);
      const open = (id: string) =>
        callRoute(appInjector(limited.app), 'POST /api/conversations', {
          as: b,
          body: { listingId: id, text: 'hi' },
        });
      expect((await open(ids[0]!)).status).toBe(201);
      expect((await open(ids[1]!)).status).toBe(201);
      const third = await open(ids[2]!);
      expect(third.status).toBe(429);
      expect(errorOf(third)).toMatchObject({
        success: false,
        statusCode: 429,
        message: expect.stringMatching(/Try again/),
      });
      // A message to an existing conversation is not a new one; the minute's limit still counts it.
      expect((await open(ids[0]!)).status).toBe(201);
      const fifth = await open(ids[0]!);
      expect(fifth.status).toBe(429);
      expect(fifth.headers.get('retry-after')).not.toBeNull();
    } finally {
      await limited.close();
    }
  });
});
