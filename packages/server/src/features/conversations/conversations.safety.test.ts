import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import type { ConversationEvent } from '@campus-books/common/conversation.schemas';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { routeCaller } from '../../../test/api-caller';
import { createListingAs } from '../../../test/listing-fixtures';
import { openSse, type SseStream } from '../../../test/support/sse-client';

const MODERATOR = 'safety-moderator@richmond.edu';

/**
 * What review found missing: the inbox follows the listing visibility rule, the unread count
 * leaves out what a suspension hides, and a block reaches the other side's open thread live.
 */
describe(`conversations: visibility, unread and live blocks (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let origin: string;
  let moderator: TestUser;
  const streams: SseStream[] = [];
  beforeAll(async () => {
    t = await createTestApp({
      ...GENEROUS_LIMITS,
      RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
      RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
      MODERATOR_EMAILS: MODERATOR,
    });
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    moderator = await createUser(t, { email: MODERATOR });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t.close();
  });

  const route = routeCaller(() => t);
  const inbox = async (user: TestUser) =>
    dataOf(await route('GET /api/conversations', { as: user })).conversations;
  const unread = async (user: TestUser) =>
    dataOf(await route('GET /api/conversations/unread', { as: user })).count;
  const thread = async (user: TestUser, id: string) =>
    dataOf(await route('GET /api/conversations/:id', { as: user, params: { id } }));
  const block = (user: TestUser, verb: 'POST' | 'DELETE', userId: string) =>
    route(`${verb} /api/blocks/:userId`, { as: user, params: { userId } });

  async function conversation(seller: TestUser, name = 'Physics I') {
    const buyer = await createUser(t);
    const listing = await createListingAs(t, seller, { name, regularPrice: 55 });
    const res = await route('POST /api/conversations', {
      as: buyer,
      body: { listingId: listing._id, text: 'Is it free?' },
    });
    return { buyer, listing, id: dataOf(res).conversationId };
  }

  it('shows a removed listing to the buyer by its title only, "no longer available"', async () => {
    const seller = await createUser(t);
    const c = await conversation(seller, 'Removed Book');
    const before = (await inbox(c.buyer)).find((l) => l.id === c.id)!;
    expect(before.listing).toMatchObject({ price: 55, status: 'active', available: true });
    expect(before.listing.cover).not.toBeNull();

    const removed = await route('POST /api/moderation/listings/:listingId/remove', {
      as: moderator,
      params: { listingId: c.listing._id },
      body: { reason: 'Not a textbook' },
    });
    expect(removed.status).toBe(200);
    const line = (await inbox(c.buyer)).find((l) => l.id === c.id)!;
    expect(line.listing).toEqual({
      id: c.listing._id,
      name: 'Removed Book',
      price: null,
      cover: null,
      status: null,
      pendingUntil: null,
      available: false,
    });
    const view = await thread(c.buyer, c.id);
    expect(view.listing).toMatchObject({ price: null, cover: null, available: false });
    expect(JSON.stringify(view)).not.toContain(c.listing.imageUrls[0]!);
    // Its seller still sees their own listing (the visibility rule's owner clause).
    const sellers = (await inbox(seller)).find((l) => l.id === c.id)!;
    expect(sellers.listing).toMatchObject({ price: 55, status: 'removed', available: true });
  });

  it('leaves a suspended student’s hidden messages out of the unread count and marks', async () => {
    const seller = await createUser(t);
    const c = await conversation(seller);
    expect(await unread(seller)).toBe(1);
    const suspended = await route('POST /api/moderation/users/:userId/suspend', {
      as: moderator,
      params: { userId: c.buyer.id },
      body: { reason: 'Spam' },
    });
    expect(suspended.status).toBe(200);
    expect(await unread(seller)).toBe(0);
    expect((await inbox(seller)).find((l) => l.id === c.id)?.unread).toBe(false);
    // A line the seller may read still counts.
    await route('POST /api/listing/mark-as-sold/:id', {
      as: seller,
      params: { id: c.listing._id },
    });
    expect(await unread(seller)).toBe(1);
    const view = await thread(seller, c.id);
    expect(view.events.map((e) => e.kind)).toEqual(['sold']);
    await route('POST /api/conversations/:id/read', {
      as: seller,
      params: { id: c.id },
      body: { upTo: view.lastEventId },
    });
    expect(await unread(seller)).toBe(0);
    const other = await conversation(seller, 'Second Book');
    expect(await unread(seller)).toBe(1);
    expect((await inbox(seller)).find((l) => l.id === other.id)?.unread).toBe(true);
  });

  it("turns the other side's open thread read-only live when one blocks, and back on unblock", async () => {
    const seller = await createUser(t);
    const c = await conversation(seller);
    const stream = await openSse(`${origin}/api/conversations/events`, { cookie: c.buyer.cookie });
    streams.push(stream);
    const next = async () => {
      const message = await stream.next();
      expect(message.event).toBe('conversation');
      return JSON.parse(message.data) as ConversationEvent;
    };

    expect((await block(seller, 'POST', c.buyer.id)).status).toBe(200);
    const blocked = await next();
    expect(blocked).toMatchObject({ conversationId: c.id, kind: 'blocked', author: null });
    const view = await thread(c.buyer, c.id);
    expect(view.readOnly).toBe(true);
    // Blocking again writes nothing more.
    await block(seller, 'POST', c.buyer.id);

    expect((await block(seller, 'DELETE', c.buyer.id)).status).toBe(200);
    expect(await next()).toMatchObject({ conversationId: c.id, kind: 'unblocked' });
    const open = await thread(c.buyer, c.id);
    expect(open.readOnly).toBe(false);
    expect(open.events.map((e) => e.kind)).toEqual(['message', 'blocked', 'unblocked']);
  });
});
