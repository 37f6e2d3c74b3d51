import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf } from '@campus-books/common/call-route';
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

/**
 * Only the two participants read or act in a conversation: another student's id, a guessed id, a
 * query string or an encoded path is a 404 that says nothing. Blocks make a thread read-only.
 */
describe(`conversations: who may read and write (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  let buyer: TestUser;
  let stranger: TestUser;
  let conversationId: string;
  let offerId: string;
  let listingId: string;
  beforeAll(async () => {
    t = await createTestApp({
      ...GENEROUS_LIMITS,
      RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
      RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
    });
    seller = await createUser(t);
    buyer = await createUser(t);
    stranger = await createUser(t);
    listingId = (await createListingAs(t, seller, { regularPrice: 30 }))._id;
    const sent = await route('POST /api/conversations', {
      as: buyer,
      body: { listingId, text: 'Private words' },
    });
    conversationId = dataOf(sent).conversationId;
    const offer = await route('POST /api/conversations/:id/offers', {
      as: buyer,
      params: { id: conversationId },
      body: { amount: 20 },
    });
    offerId = dataOf(offer).event.offerId!;
  });
  afterAll(() => t.close());

  const route = routeCaller(() => t);
  const thread = async (user: TestUser, id: string) =>
    dataOf(await route('GET /api/conversations/:id', { as: user, params: { id } }));
  /** A raw request: these tests send what no typed call would (guessed ids, encoded paths). */
  function call(
    user: TestUser | null,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: unknown,
  ) {
    return t.app.inject({
      method,
      url,
      headers: user ? { cookie: user.cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  const routesOf = (id: string) =>
    [
      ['GET', `/api/conversations/${id}`, undefined],
      ['POST', `/api/conversations/${id}/messages`, { text: 'hi' }],
      ['POST', `/api/conversations/${id}/read`, { upTo: 1000 }],
      ['POST', `/api/conversations/${id}/offers`, { amount: 1 }],
      ['POST', `/api/conversations/${id}/offers/${offerId}/accept`, undefined],
      ['POST', `/api/conversations/${id}/offers/${offerId}/decline`, undefined],
    ] as const;

  it("answers 404 to a stranger on every route of another's conversation, and writes nothing", async () => {
    for (const [method, url, body] of routesOf(conversationId)) {
      const res = await call(stranger, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.body).not.toContain('Private words');
    }
    const view = await thread(buyer, conversationId);
    expect(view.events.map((e) => e.kind)).toEqual(['message', 'offer']);
    expect(view.openOffer?.status).toBe('open');
  });

  it('25 parallel copies of a stranger reading it: all 404', async () => {
    const results = await Promise.all(
      Array.from({ length: 25 }, () =>
        call(stranger, 'GET', `/api/conversations/${conversationId}`),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(25).fill(404));
  });

  it('guessed ids, query strings and encoded paths reveal nothing', async () => {
    const guesses = [
      '0b8e5a62-3c1f-4d8e-9a57-1f2e3d4c5b6a',
      'not-a-uuid',
      `${conversationId}%00`,
      encodeURIComponent(`${conversationId}/../${conversationId}`),
      `${conversationId.toUpperCase()}x`,
      `%2e%2e%2f${conversationId}`,
    ];
    for (const id of guesses) {
      const res = await call(stranger, 'GET', `/api/conversations/${id}`);
      expect([400, 404], id).toContain(res.statusCode);
      expect(res.body).not.toContain('Private words');
    }
    for (const query of [
      `?userId=${buyer.id}`,
      `?as=${seller.id}`,
      `?listingId=${listingId}&x=1`,
    ]) {
      const res = await call(stranger, 'GET', `/api/conversations/${conversationId}${query}`);
      expect(res.statusCode, query).toBe(404);
    }
    // The inbox filter by listing is the caller's own conversations only; unknown keys are refused.
    const mine = await route('GET /api/conversations', { as: stranger, query: { listingId } });
    expect(dataOf(mine)).toEqual({ conversations: [] });
    expect((await call(stranger, 'GET', `/api/conversations?userId=${buyer.id}`)).statusCode).toBe(
      400,
    );
    expect((await call(stranger, 'GET', '/api/conversations?listingId=nope')).statusCode).toBe(400);
    // Seller-only routes of another's listing.
    for (const path of ['release', 'sold']) {
      const res = await call(buyer, 'POST', `/api/conversations/listing/${listingId}/${path}`, {
        buyerId: null,
      });
      expect(res.statusCode, path).toBe(403);
    }
  });

  it('answers 401 signed out and 403 unverified', async () => {
    const unverified = await createUser(t, { verified: false });
    for (const [method, url, body] of routesOf(conversationId)) {
      expect((await call(null, method, url, body)).statusCode, url).toBe(401);
      expect((await call(unverified, method, url, body)).statusCode, url).toBe(403);
    }
    expect((await call(null, 'GET', '/api/conversations/unread')).statusCode).toBe(401);
    expect((await call(null, 'GET', '/api/blocks')).statusCode).toBe(401);
  });

  it('a block stops new conversations and makes existing ones read-only for both, until unblocked', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    const listingOfA = (await createListingAs(t, a))._id;
    const other = (await createListingAs(t, a))._id;
    const c = dataOf(
      await route('POST /api/conversations', {
        as: b,
        body: { listingId: listingOfA, text: 'hello' },
      }),
    ).conversationId;
    expect((await call(a, 'POST', `/api/blocks/${b.id}`)).statusCode).toBe(200);
    expect((await call(a, 'POST', `/api/blocks/${b.id}`)).statusCode).toBe(200);
    expect(dataOf(await route('GET /api/blocks', { as: a }))).toMatchObject({
      blocked: [{ id: b.id, username: b.username }],
    });
    // Neither can write: not in the thread, not a new one, not an offer.
    const write = (user: TestUser, text: string) =>
      route('POST /api/conversations/:id/messages', {
        as: user,
        params: { id: c },
        body: { text },
      });
    const refusals = {
      'the blocked one writes': () => write(b, 'why?'),
      'the blocker writes': () => write(a, 'bye'),
      'an offer': () =>
        route('POST /api/conversations/:id/offers', {
          as: b,
          params: { id: c },
          body: { amount: 1 },
        }),
      'a new conversation': () =>
        route('POST /api/conversations', { as: b, body: { listingId: other, text: 'new one' } }),
    };
    for (const [what, send] of Object.entries(refusals)) {
      const res = await send();
      expect(res.status, what).toBe(403);
      expect(errorOf(res).message).toMatch(/cannot write/);
    }
    const view = await thread(b, c);
    expect(view.readOnly).toBe(true);
    // Nothing written but the block's own line.
    expect(view.events.map((e) => e.kind)).toEqual(['message', 'blocked']);
    // Blocking oneself or a non-id is refused; the blocked one cannot unblock for the other.
    expect((await call(a, 'POST', `/api/blocks/${a.id}`)).statusCode).toBe(400);
    expect((await call(a, 'POST', '/api/blocks/nope')).statusCode).toBe(400);
    await call(b, 'DELETE', `/api/blocks/${a.id}`);
    expect(
      (await call(b, 'POST', `/api/conversations/${c}/messages`, { text: 'x' })).statusCode,
    ).toBe(403);
    expect((await call(a, 'DELETE', `/api/blocks/${b.id}`)).statusCode).toBe(200);
    expect(
      (await call(b, 'POST', `/api/conversations/${c}/messages`, { text: 'x' })).statusCode,
    ).toBe(201);
  });
});
