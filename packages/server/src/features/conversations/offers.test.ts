import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf, type RouteAnswer } from '@campus-books/common/call-route';
import { CONVERSATION_LIMITS } from '../../../test/accounts';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { routeCaller } from '../../../test/api-caller';
import { createListingAs } from '../../../test/listing-fixtures';
import { listings } from '../../db/schema';

const HOUR = 60 * 60_000;
let clock = new Date('2027-03-01T12:00:00Z');

describe(`offers and the pending hold (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  let buyer: TestUser;
  let rival: TestUser;
  let third: TestUser;
  beforeAll(async () => {
    t = await createTestApp(CONVERSATION_LIMITS, { now: () => clock });
    seller = await createUser(t);
    buyer = await createUser(t);
    rival = await createUser(t);
    third = await createUser(t);
  });
  afterAll(() => t.close());

  const route = routeCaller(() => t);
  const open = async (user: TestUser, listingId: string) =>
    dataOf(
      await route('POST /api/conversations', {
        as: user,
        body: { listingId, text: 'Interested!' },
      }),
    ).conversationId;
  const offer = (user: TestUser, id: string, amount: number) =>
    route('POST /api/conversations/:id/offers', { as: user, params: { id }, body: { amount } });
  const answer = (user: TestUser, id: string, offerId: string, verb: 'accept' | 'decline') =>
    route(`POST /api/conversations/:id/offers/:offerId/${verb}`, {
      as: user,
      params: { id, offerId },
    });
  const thread = async (user: TestUser, id: string) =>
    dataOf(await route('GET /api/conversations/:id', { as: user, params: { id } }));
  const listingAs = async (user: TestUser, id: string) =>
    dataOf(await route('GET /api/listing/get/:id', { as: user, params: { id } }));
  const offerIdOf = (res: RouteAnswer<'POST /api/conversations/:id/offers'>) =>
    dataOf(res).event.offerId!;
  const release = (user: TestUser, listingId: string) =>
    route('POST /api/conversations/listing/:listingId/release', {
      as: user,
      params: { listingId },
    });
  const sell = (user: TestUser, listingId: string, buyerId: string) =>
    route('POST /api/conversations/listing/:listingId/sold', {
      as: user,
      params: { listingId },
      body: { buyerId },
    });

  it('offer, counter, accept: the listing is Pending for everyone, until the hold ends', async () => {
    const listing = await createListingAs(t, seller, { regularPrice: 50 });
    const c = await open(buyer, listing._id);
    const first = await offer(buyer, c, 35);
    expect(first.status).toBe(201);
    expect(dataOf(first).event).toMatchObject({
      kind: 'offer',
      author: 'buyer',
      amount: 35,
    });
    const counter = await offer(seller, c, 45);
    expect(counter.status).toBe(201);
    // The buyer's offer was countered: it cannot be accepted any more; the counter can.
    expect((await answer(seller, c, offerIdOf(first), 'accept')).status).toBe(409);
    expect((await answer(seller, c, offerIdOf(counter), 'accept')).status).toBe(403);
    expect((await thread(buyer, c)).openOffer).toMatchObject({
      from: 'seller',
      amount: 45,
      status: 'open',
    });
    const accepted = await answer(buyer, c, offerIdOf(counter), 'accept');
    expect(accepted.status).toBe(200);
    expect(dataOf(accepted).event).toMatchObject({
      kind: 'offer_accepted',
      author: 'buyer',
      amount: 45,
    });

    const until = new Date(clock.getTime() + 72 * HOUR).toISOString();
    expect((await listingAs(third, listing._id)).pendingUntil).toBe(until);
    const search = dataOf(await route('GET /api/listing/get', { query: { limit: 50 } }));
    expect(search.find((l) => l._id === listing._id)?.pendingUntil).toBe(until);
    const view = await thread(seller, c);
    expect(view.heldForThisBuyer).toBe(true);
    expect(view.listing.pendingUntil).toBe(until);
    expect(view.events.map((e) => e.kind)).toEqual([
      'message',
      'offer',
      'offer',
      'offer_accepted',
      'pending',
    ]);

    // Still open to messages and offers from others, whose offers cannot be accepted while it holds.
    const r = await open(rival, listing._id);
    const rivalOffer = await offer(rival, r, 50);
    expect(rivalOffer.status).toBe(201);
    const refused = await answer(seller, r, offerIdOf(rivalOffer), 'accept');
    expect(refused.status).toBe(409);
    expect(errorOf(refused).message).toMatch(/on hold for another buyer/);
    expect((await thread(rival, r)).openOffer?.status).toBe('open');

    // The hold ends by the job after 72 h: both conversations are told, the rival's offer can win.
    clock = new Date(clock.getTime() + 72 * HOUR + 1);
    await t.app.jobs.runDue();
    expect((await listingAs(third, listing._id)).pendingUntil).toBeNull();
    expect((await thread(buyer, c)).events.at(-1)?.kind).toBe('hold_expired');
    expect((await thread(rival, r)).events.at(-1)?.kind).toBe('hold_expired');
    expect((await answer(seller, r, offerIdOf(rivalOffer), 'accept')).status).toBe(200);
  });

  it('the seller releases a hold, or sells to one of the students who wrote, which ends it', async () => {
    const listing = await createListingAs(t, seller, { regularPrice: 20 });
    const c = await open(buyer, listing._id);
    const o = offerIdOf(await offer(buyer, c, 15));
    expect((await answer(seller, c, o, 'accept')).status).toBe(200);
    expect((await release(buyer, listing._id)).status).toBe(403);
    expect((await release(seller, listing._id)).status).toBe(200);
    expect((await release(seller, listing._id)).status).toBe(409);
    expect((await thread(buyer, c)).events.at(-1)?.kind).toBe('hold_released');

    const o2 = offerIdOf(await offer(buyer, c, 18));
    expect((await answer(seller, c, o2, 'accept')).status).toBe(200);
    expect((await sell(seller, listing._id, third.id)).status).toBe(400);
    expect((await sell(seller, listing._id, buyer.id)).status).toBe(200);
    const [row] = await t.database.db.select().from(listings).where(eq(listings.id, listing._id));
    expect(row).toMatchObject({ status: 'sold', soldTo: buyer.id, heldUntil: null, heldFor: null });
    expect((await listingAs(third, listing._id)).pendingUntil).toBeNull();
    expect((await thread(buyer, c)).events.at(-1)?.kind).toBe('sold');
    // An accept after sold, and an offer on a sold listing: 409 with a clear message.
    const late = await offer(buyer, c, 10);
    expect(late.status).toBe(409);
    expect(errorOf(late).message).toMatch(/not for sale any more/);
  });

  it('refuses offers above the price, not whole, on expired, hidden and deleted listings', async () => {
    const listing = await createListingAs(t, seller, { regularPrice: 30 });
    const c = await open(buyer, listing._id);
    expect((await offer(buyer, c, 31)).status).toBe(400);
    expect((await offer(buyer, c, 12.5)).status).toBe(400);
    expect((await offer(buyer, c, -1)).status).toBe(400);
    expect((await offer(buyer, c, 0)).status).toBe(201);
    // The seller counters only an open offer of the buyer's.
    expect((await offer(seller, c, 25)).status).toBe(201);
    expect((await offer(seller, c, 24)).status).toBe(409);
    for (const status of ['expired', 'hidden'] as const) {
      await t.database.db.update(listings).set({ status }).where(eq(listings.id, listing._id));
      const res = await offer(buyer, c, 5);
      expect(res.status).toBe(409);
      expect(errorOf(res).message).toMatch(/not for sale/);
    }
    await t.database.db.delete(listings).where(eq(listings.id, listing._id));
    expect((await offer(buyer, c, 5)).status).toBe(409);
    // The thread outlives its listing, under the listing's name.
    expect((await thread(buyer, c)).listing).toMatchObject({ id: null, price: null });
  });

  it('25 parallel accepts of one offer: one accept, one hold, one line', async () => {
    const listing = await createListingAs(t, seller, { regularPrice: 40 });
    const c = await open(buyer, listing._id);
    const o = offerIdOf(await offer(buyer, c, 30));
    const results = await Promise.all(
      Array.from({ length: 25 }, () => answer(seller, c, o, 'accept')),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(24);
    const kinds = (await thread(seller, c)).events.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'offer_accepted')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'pending')).toHaveLength(1);
  });

  it("two accepts of two buyers' offers racing (two devices): one hold, the other 409, nothing half-written", async () => {
    const listing = await createListingAs(t, seller, { regularPrice: 40 });
    const c1 = await open(buyer, listing._id);
    const c2 = await open(rival, listing._id);
    const o1 = offerIdOf(await offer(buyer, c1, 30));
    const o2 = offerIdOf(await offer(rival, c2, 31));
    const [a, b] = await Promise.all([
      answer(seller, c1, o1, 'accept'),
      answer(seller, c2, o2, 'accept'),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const [loser, loserOffer] = a.status === 409 ? [c1, o1] : [c2, o2];
    // The losing offer is still open (its accept rolled back), and no accepted line was written.
    const view = await thread(seller, loser);
    expect(view.openOffer?.id).toBe(loserOffer);
    expect(view.events.filter((e) => e.kind === 'offer_accepted')).toEqual([]);
    expect(view.heldForThisBuyer).toBe(false);
  });

  it('25 parallel first messages make one conversation', async () => {
    const listing = await createListingAs(t, seller);
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        route('POST /api/conversations', {
          as: third,
          body: { listingId: listing._id, text: `copy ${i}` },
        }),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const ids = new Set(results.map((r) => dataOf(r).conversationId));
    expect(ids.size).toBe(1);
    expect((await thread(third, [...ids][0]!)).events).toHaveLength(25);
  });
});
