import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCampus } from '@campus-books/common/active-campus';
import { dataOf, errorOf, type RouteAnswer } from '@campus-books/common/call-route';
import { CONVERSATION_MESSAGES as M } from '@campus-books/common/conversation.schemas';
import { BUNDLE_REASONS, OFFER_SET_MESSAGES as S } from '@campus-books/common/offer-sets';
import { CONVERSATION_LIMITS } from '../../../test/accounts';
import { routeCaller } from '../../../test/api-caller';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createListingAs } from '../../../test/listing-fixtures';
import { conversationEvents, conversations, offers } from '../../db/conversations.schema';
import { listings } from '../../db/schema';

const clock = new Date('2027-04-01T12:00:00Z');

describe(`one offer for several books from a listing's page (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let buyer: TestUser;
  let rival: TestUser;
  beforeAll(async () => {
    t = await createTestApp(CONVERSATION_LIMITS, { now: () => clock });
    [buyer, rival] = (await Promise.all([1, 2].map(() => createUser(t)))) as [TestUser, TestUser];
  });
  afterAll(() => t.close());

  const route = routeCaller(() => t);
  const subject = (i: number) => activeCampus().subjects[i]!.code;

  /** A new seller with three books of one course (20 + 25 + 15 dollars) and one of another. */
  async function shelf() {
    const seller = await createUser(t);
    const book = async (name: string, price: number, courseNumber = '211') =>
      (
        await createListingAs(t, seller, {
          name,
          regularPrice: price,
          subject: subject(1),
          courseNumber,
        })
      )._id;
    const ids = [
      await book('Organic Chemistry', 20),
      await book('Lab Manual', 25),
      await book('Model Kit', 15),
    ];
    const other = await book('Poetry Reader', 8, '300');
    return { seller, ids, other };
  }
  const offerFrom = (
    user: TestUser,
    body: { listingId: string; amount: number; listingIds?: string[]; text?: string },
    clientId = randomUUID(),
  ) => route('POST /api/conversations/offers', { as: user, body: { ...body, clientId } });
  const candidates = (user: TestUser, id: string) =>
    route('GET /api/listing/:id/bundle-candidates', { as: user, params: { id } });
  const thread = async (user: TestUser, id: string) =>
    dataOf(await route('GET /api/conversations/:id', { as: user, params: { id } }));
  const conversationsOf = (listingId: string) =>
    t.database.db.select().from(conversations).where(eq(conversations.listingId, listingId));
  const refusal = async (res: Promise<{ status: number }>, status: number, message: string) => {
    const answered = (await res) as RouteAnswer<'POST /api/conversations/offers'>;
    expect(answered.status).toBe(status);
    expect(errorOf(answered).message).toBe(message);
  };
  const setStatus = (id: string, status: 'hidden' | 'sold') =>
    t.database.db.update(listings).set({ status }).where(eq(listings.id, id));

  it('lists the seller’s other books from the page: the same course first, unavailable ones with the reason', async () => {
    const { seller, ids, other } = await shelf();
    await setStatus(ids[2]!, 'sold');
    const answer = await candidates(buyer, ids[0]!);
    expect(answer.status).toBe(200);
    expect(dataOf(answer).listings.map((l) => [l.id, l.suggested, l.available, l.reason])).toEqual([
      [ids[1], true, true, null],
      [ids[2], true, false, BUNDLE_REASONS.sold],
      [other, false, true, null],
    ]);
    // The seller's own listing, someone else's hidden one, an unknown or malformed id: refused.
    await refusal(candidates(seller, ids[0]!), 403, M.ownListing);
    await setStatus(other, 'hidden');
    expect((await candidates(buyer, other)).status).toBe(404);
    expect((await candidates(buyer, randomUUID())).status).toBe(404);
    expect((await candidates(buyer, 'not-an-id')).status).toBe(404);
    const signedOut = await t.app.inject({
      method: 'GET',
      url: `/api/listing/${ids[0]}/bundle-candidates`,
    });
    expect(signedOut.statusCode).toBe(401);
  });

  it('opens the conversation with the text and one offer for three books; the seller accepts the set', async () => {
    const { seller, ids } = await shelf();
    const made = await offerFrom(buyer, {
      listingId: ids[0]!,
      amount: 50,
      listingIds: ids.slice(1),
      text: 'Would you take $50 for the three?',
    });
    expect(made.status).toBe(201);
    const { conversationId, event } = dataOf(made);
    expect(event.kind).toBe('offer');
    expect(event.amount).toBe(50);
    expect(event.listings.map((l) => l.id)).toEqual(ids);
    const view = await thread(seller, conversationId);
    expect(view.listing.id).toBe(ids[0]);
    expect(view.events.map((e) => e.kind)).toEqual(['message', 'offer']);
    expect(view.events[0]!.body).toBe('Would you take $50 for the three?');
    expect(view.openOffer?.listings.map((l) => l.id)).toEqual(ids);
    const accepted = await route('POST /api/conversations/:id/offers/:offerId/accept', {
      as: seller,
      params: { id: conversationId, offerId: event.offerId! },
    });
    expect(accepted.status).toBe(200);
    const rows = await t.database.db.select().from(listings).where(inArray(listings.id, ids));
    expect(rows.every((row) => row.heldFor === buyer.id)).toBe(true);
  });

  it('reuses the buyer’s conversation about the listing: the new offer replaces the open one', async () => {
    const { ids } = await shelf();
    const opened = dataOf(
      await route('POST /api/conversations', {
        as: buyer,
        body: { listingId: ids[0]!, text: 'Still available?' },
      }),
    ).conversationId;
    const first = await route('POST /api/conversations/:id/offers', {
      as: buyer,
      params: { id: opened },
      body: { amount: 15 },
    });
    const made = await offerFrom(buyer, { listingId: ids[0]!, amount: 40, listingIds: [ids[1]!] });
    expect(made.status).toBe(201);
    expect(dataOf(made).conversationId).toBe(opened);
    expect(await conversationsOf(ids[0]!)).toHaveLength(1);
    const view = await thread(buyer, opened);
    expect(view.openOffer?.id).toBe(dataOf(made).event.offerId);
    const [old] = await t.database.db
      .select()
      .from(offers)
      .where(eq(offers.id, dataOf(first).event.offerId!));
    expect(old!.status).toBe('countered');
  });

  it('refuses another seller’s book, a held, sold or hidden one, the buyer’s own listing, and a price above the set; nothing is opened', async () => {
    const { seller, ids, other } = await shelf();
    const rivals = await createListingAs(t, rival, { name: 'Physics II' });
    const body = (listingIds: string[], amount = 10) => ({
      listingId: ids[0]!,
      amount,
      listingIds,
    });
    await refusal(offerFrom(buyer, body([rivals._id])), 400, S.notSellers('Physics II'));
    await refusal(offerFrom(buyer, body([ids[0]!])), 400, S.ownListingListed);
    await refusal(offerFrom(buyer, body([ids[1]!], 46)), 400, S.aboveSetPrice);
    await refusal(offerFrom(buyer, { listingId: ids[0]!, amount: 21 }), 400, M.offerAbovePrice);
    // The buyer's own listing: neither the listing of the offer nor one of its set.
    const mine = await createListingAs(t, buyer, { name: 'My Own Atlas' });
    await refusal(offerFrom(buyer, { listingId: mine._id, amount: 5 }), 403, M.ownListing);
    await refusal(offerFrom(buyer, body([mine._id])), 400, S.notSellers('My Own Atlas'));
    // Held for a rival (an accepted offer), sold, hidden (alike an unknown id).
    const r = dataOf(await offerFrom(rival, { listingId: ids[1]!, amount: 20, text: 'Hi' }));
    expect(
      (
        await route('POST /api/conversations/:id/offers/:offerId/accept', {
          as: seller,
          params: { id: r.conversationId, offerId: r.event.offerId! },
        })
      ).status,
    ).toBe(200);
    await refusal(offerFrom(buyer, body([ids[1]!])), 409, S.held('Lab Manual'));
    await refusal(
      offerFrom(buyer, { listingId: ids[1]!, amount: 5, listingIds: [ids[2]!] }),
      409,
      S.held('Lab Manual'),
    );
    await setStatus(ids[2]!, 'sold');
    await refusal(offerFrom(buyer, body([ids[2]!])), 409, S.sold('Model Kit'));
    await setStatus(other, 'hidden');
    await refusal(offerFrom(buyer, body([other])), 400, S.notFound(other));
    await refusal(offerFrom(buyer, { listingId: other, amount: 5 }), 404, 'Listing not found');
    await refusal(
      offerFrom(buyer, { listingId: 'not-an-id', amount: 5 }),
      404,
      'Listing not found',
    );
    expect(await conversationsOf(ids[0]!)).toHaveLength(0);
    // A block either way: refused before anything is written.
    expect(
      (await route('POST /api/blocks/:userId', { as: seller, params: { userId: buyer.id } }))
        .status,
    ).toBe(200);
    const fresh = await createListingAs(t, seller, { name: 'Blocked Book', regularPrice: 10 });
    await refusal(offerFrom(buyer, { listingId: fresh._id, amount: 5 }), 403, M.blocked);
    expect(await conversationsOf(fresh._id)).toHaveLength(0);
  });

  it('makes one conversation, one message and one offer of 25 identical requests at once; the id reused otherwise is refused', async () => {
    const { seller, ids } = await shelf();
    const clientId = randomUUID();
    const body = { listingId: ids[0]!, amount: 45, listingIds: ids.slice(1), text: 'All three?' };
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => offerFrom(buyer, body, clientId)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(25).fill(201));
    expect(new Set(answers.map((a) => dataOf(a).event.id)).size).toBe(1);
    const rows = await conversationsOf(ids[0]!);
    expect(rows).toHaveLength(1);
    const events = await t.database.db
      .select()
      .from(conversationEvents)
      .where(eq(conversationEvents.conversationId, rows[0]!.id));
    expect(events.map((e) => e.kind).sort()).toEqual(['message', 'offer']);
    expect(
      await t.database.db.select().from(offers).where(eq(offers.conversationId, rows[0]!.id)),
    ).toHaveLength(1);
    expect((await thread(seller, rows[0]!.id)).openOffer?.listings).toHaveLength(3);
    // The same id for another amount or set is not a repeat.
    await refusal(offerFrom(buyer, { ...body, amount: 44 }, clientId), 409, M.clientIdReused);
    await refusal(
      offerFrom(buyer, { ...body, listingIds: [ids[1]!] }, clientId),
      409,
      M.clientIdReused,
    );
  });
});
