import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCampus } from '@campus-books/common/active-campus';
import { dataOf, errorOf, type RouteAnswer } from '@campus-books/common/call-route';
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
import { exchanges } from '../../db/ratings.schema';
import { listings } from '../../db/schema';

const HOUR = 60 * 60_000;
let clock = new Date('2027-04-01T12:00:00Z');

describe(`one offer for several books (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  let buyer: TestUser;
  let rival: TestUser;
  let third: TestUser;
  beforeAll(async () => {
    t = await createTestApp(CONVERSATION_LIMITS, { now: () => clock });
    [seller, buyer, rival, third] = (await Promise.all([1, 2, 3, 4].map(() => createUser(t)))) as [
      TestUser,
      TestUser,
      TestUser,
      TestUser,
    ];
  });
  afterAll(() => t.close());

  const route = routeCaller(() => t);
  const subject = (i: number) => activeCampus().subjects[i]!.code;
  const book = async (name: string, price: number, s = 0, courseNumber = '211') =>
    (
      await createListingAs(t, seller, {
        name,
        regularPrice: price,
        subject: subject(s),
        courseNumber,
      })
    )._id;
  const open = async (user: TestUser, listingId: string) =>
    dataOf(await route('POST /api/conversations', { as: user, body: { listingId, text: 'Hello' } }))
      .conversationId;
  const offer = (user: TestUser, id: string, amount: number, listingIds?: string[]) =>
    route('POST /api/conversations/:id/offers', {
      as: user,
      params: { id },
      body: listingIds ? { amount, listingIds } : { amount },
    });
  const answer = (user: TestUser, id: string, offerId: string, verb: 'accept' | 'decline') =>
    route(`POST /api/conversations/:id/offers/:offerId/${verb}`, {
      as: user,
      params: { id, offerId },
    });
  const offerIdOf = (res: RouteAnswer<'POST /api/conversations/:id/offers'>) =>
    dataOf(res).event.offerId!;
  const thread = async (user: TestUser, id: string) =>
    dataOf(await route('GET /api/conversations/:id', { as: user, params: { id } }));
  const pendingUntil = async (id: string) =>
    dataOf(await route('GET /api/listing/get/:id', { as: third, params: { id } })).pendingUntil;
  const rowsOf = (ids: string[]) =>
    t.database.db.select().from(listings).where(inArray(listings.id, ids));
  const refusal = async (res: Promise<{ status: number }>, status: number, message: string) => {
    const answered = (await res) as RouteAnswer<'POST /api/conversations/:id/offers'>;
    expect(answered.status).toBe(status);
    expect(errorOf(answered).message).toBe(message);
  };

  /** Three books of the seller: the conversation's and two more, 20 + 25 + 15 dollars. */
  async function threeBooks(buyerOf = buyer) {
    const ids = [
      await book('Organic Chemistry', 20),
      await book('Lab Manual', 25),
      await book('Model Kit', 15),
    ];
    return { ids, c: await open(buyerOf, ids[0]!) };
  }

  it('makes, counters and accepts a 3-book set: all three pending for a third visitor, then sold, one exchange each', async () => {
    const { ids, c } = await threeBooks();
    await refusal(offer(buyer, c, 61, ids.slice(1)), 400, S.aboveSetPrice);
    const made = await offer(buyer, c, 50, ids.slice(1));
    expect(made.status).toBe(201);
    expect(dataOf(made).event.listings).toEqual([
      { id: ids[0], title: 'Organic Chemistry', price: 20, status: 'active' },
      { id: ids[1], title: 'Lab Manual', price: 25, status: 'active' },
      { id: ids[2], title: 'Model Kit', price: 15, status: 'active' },
    ]);
    // The seller counters for the same set; a set of their own is refused.
    await refusal(offer(seller, c, 55, [ids[1]!]), 400, S.counterKeepsSet);
    await refusal(offer(seller, c, 61), 400, S.aboveSetPrice);
    const counter = await offer(seller, c, 55);
    expect(dataOf(counter).event.listings.map((l) => l.id)).toEqual(ids);
    expect((await thread(buyer, c)).openOffer?.listings.map((l) => l.id)).toEqual(ids);
    const accepted = await answer(buyer, c, offerIdOf(counter), 'accept');
    expect(accepted.status).toBe(200);
    expect(dataOf(accepted).event.listings.map((l) => l.id)).toEqual(ids);

    const until = new Date(clock.getTime() + 72 * HOUR).toISOString();
    for (const id of ids) expect(await pendingUntil(id)).toBe(until);
    const view = await thread(seller, c);
    expect(view.heldForThisBuyer).toBe(true);
    expect(view.events.filter((e) => e.kind === 'offer').map((e) => e.listings.length)).toEqual([
      3, 3,
    ]);

    // "Sold" on any book of the set sells every book to the buyer: an exchange per book.
    const sold = await route('POST /api/conversations/listing/:listingId/sold', {
      as: seller,
      params: { listingId: ids[2]! },
      body: { buyerId: buyer.id },
    });
    expect(sold.status).toBe(200);
    const rows = await rowsOf(ids);
    expect(rows.map((r) => [r.status, r.soldTo, r.heldUntil])).toEqual(
      ids.map(() => ['sold', buyer.id, null]),
    );
    const made3 = await t.database.db
      .select()
      .from(exchanges)
      .where(inArray(exchanges.listingId, ids));
    expect(made3).toHaveLength(3);
    expect((await thread(buyer, c)).events.at(-1)?.kind).toBe('sold');
  });

  it('declining holds nothing; the seller releasing one book releases the whole set; expiry ends the set together', async () => {
    const { ids, c } = await threeBooks();
    const declined = offerIdOf(await offer(buyer, c, 40, ids.slice(1)));
    expect((await answer(seller, c, declined, 'decline')).status).toBe(200);
    expect((await rowsOf(ids)).every((r) => r.heldUntil === null)).toBe(true);

    const second = offerIdOf(await offer(buyer, c, 45, ids.slice(1)));
    expect((await answer(seller, c, second, 'accept')).status).toBe(200);
    const released = await route('POST /api/conversations/listing/:listingId/release', {
      as: seller,
      params: { listingId: ids[1]! },
    });
    expect(released.status).toBe(200);
    expect((await rowsOf(ids)).every((r) => r.heldUntil === null && r.heldFor === null)).toBe(true);
    expect((await thread(buyer, c)).events.at(-1)?.kind).toBe('hold_released');

    const third_ = offerIdOf(await offer(buyer, c, 45, ids.slice(1)));
    expect((await answer(seller, c, third_, 'accept')).status).toBe(200);
    clock = new Date(clock.getTime() + 72 * HOUR + 1);
    await t.app.jobs.runDue();
    expect((await rowsOf(ids)).every((r) => r.heldUntil === null)).toBe(true);
    for (const id of ids) expect(await pendingUntil(id)).toBeNull();
    const kinds = (await thread(buyer, c)).events.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'hold_expired')).toHaveLength(1);
  });

  it('refuses a set with a listing that is not the seller’s, unknown or hidden (alike), sold, held, or listed twice', async () => {
    const { ids, c } = await threeBooks();
    const others = await createListingAs(t, rival, { name: 'Physics II' });
    await refusal(offer(buyer, c, 10, [others._id]), 400, S.notSellers('Physics II'));
    const unknown = randomUUID();
    await refusal(offer(buyer, c, 10, [unknown]), 400, S.notFound(unknown));
    await t.database.db.update(listings).set({ status: 'hidden' }).where(eq(listings.id, ids[2]!));
    await refusal(offer(buyer, c, 10, [ids[2]!]), 400, S.notFound(ids[2]!));
    await t.database.db.update(listings).set({ status: 'sold' }).where(eq(listings.id, ids[2]!));
    await refusal(offer(buyer, c, 10, [ids[2]!]), 409, S.sold('Model Kit'));
    await refusal(offer(buyer, c, 10, [ids[0]!]), 400, S.ownListingListed);
    await refusal(offer(buyer, c, 10, [ids[1]!, ids[1]!]), 400, `listingIds: ${S.twice}`);
    const nine = Array.from({ length: 9 }, () => randomUUID());
    await refusal(offer(buyer, c, 10, nine), 400, `listingIds: ${S.tooMany}`);
    // A rival holds the second book: it cannot join a set, and a set made before cannot be accepted.
    const set = offerIdOf(await offer(buyer, c, 30, [ids[1]!]));
    const r = await open(rival, ids[1]!);
    expect((await answer(seller, r, offerIdOf(await offer(rival, r, 20)), 'accept')).status).toBe(
      200,
    );
    await refusal(offer(buyer, c, 10, [ids[1]!]), 409, S.held('Lab Manual'));
    await refusal(answer(seller, c, set, 'accept'), 409, S.held('Lab Manual'));
    // Nothing of the refused set was held, and its offer is still open.
    expect((await rowsOf([ids[0]!]))[0]!.heldUntil).toBeNull();
    expect((await thread(buyer, c)).openOffer?.id).toBe(set);
  });

  it('answers the candidates: same course first, unavailable ones with a reason, hidden ones only to the seller', async () => {
    const own = await book('Microeconomics', 30, 1, '101');
    const sameCourse = await book('Micro Study Guide', 10, 1, '101');
    const held = await book('Micro Workbook', 12, 1, '101');
    const otherCourse = await book('Poetry Reader', 8, 2, '300');
    const sold = await book('Statistics', 9, 3, '120');
    const hidden = await book('Hidden Atlas', 9, 1, '101');
    await t.database.db.update(listings).set({ status: 'sold' }).where(eq(listings.id, sold));
    await t.database.db.update(listings).set({ status: 'hidden' }).where(eq(listings.id, hidden));
    const r = await open(rival, held);
    expect((await answer(seller, r, offerIdOf(await offer(rival, r, 12)), 'accept')).status).toBe(
      200,
    );
    const c = await open(third, own);
    const candidates = async (user: TestUser) =>
      dataOf(
        await route('GET /api/conversations/:id/bundle-candidates', {
          as: user,
          params: { id: c },
        }),
      ).listings.filter((l) => [sameCourse, held, otherCourse, sold, hidden].includes(l.id));
    const course = `${subject(1)} 101`;
    expect(await candidates(third)).toEqual([
      {
        id: sameCourse,
        title: 'Micro Study Guide',
        price: 10,
        courses: [course],
        suggested: true,
        available: true,
        reason: null,
      },
      {
        id: held,
        title: 'Micro Workbook',
        price: 12,
        courses: [course],
        suggested: true,
        available: false,
        reason: BUNDLE_REASONS.held,
      },
      {
        id: otherCourse,
        title: 'Poetry Reader',
        price: 8,
        courses: [`${subject(2)} 300`],
        suggested: false,
        available: true,
        reason: null,
      },
      {
        id: sold,
        title: 'Statistics',
        price: 9,
        courses: [`${subject(3)} 120`],
        suggested: false,
        available: false,
        reason: BUNDLE_REASONS.sold,
      },
    ]);
    expect((await candidates(seller)).find((l) => l.id === hidden)).toMatchObject({
      available: false,
      reason: BUNDLE_REASONS.hidden,
    });
    // Another student's conversation is not found.
    const stranger = await route('GET /api/conversations/:id/bundle-candidates', {
      as: buyer,
      params: { id: c },
    });
    expect(stranger.status).toBe(404);
  });
});
