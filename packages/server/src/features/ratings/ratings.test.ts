import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import type { Exchange, RateExchangeInput } from '@campus-books/common/rating.schemas';
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

const DAY = 24 * 60 * 60_000;
/** RATING_REVEAL_DAYS here: not the default 14, so a text that says 14 whatever it is shows. */
const REVEAL_DAYS = 10;
const MODERATOR = 'rating.moderator@richmond.edu';

describe(`ratings of recorded exchanges (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let clock = new Date();
  let seller: TestUser;
  let buyer: TestUser;
  let stranger: TestUser;
  let moderator: TestUser;
  beforeAll(async () => {
    t = await createTestApp(
      {
        ...GENEROUS_LIMITS,
        RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
        RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
        MODERATOR_EMAILS: MODERATOR,
        RATING_REVEAL_DAYS: String(REVEAL_DAYS),
      },
      { now: () => clock },
    );
    seller = await createUser(t);
    buyer = await createUser(t);
    stranger = await createUser(t);
    moderator = await createUser(t, { email: MODERATOR });
  });
  afterAll(() => t.close());

  // Raw requests for the bodies no typed call sends; the typed caller for the rest.
  const call = apiCaller(() => t);
  const route = routeCaller(() => t);
  const exchangesOf = async (user: TestUser | null) =>
    dataOf(await route('GET /api/ratings/exchanges', { as: user }));
  const exchangeOf = (user: TestUser, id: string) =>
    route('GET /api/ratings/exchanges/:id', { as: user, params: { id } });
  const rate = (user: TestUser, id: string, body: RateExchangeInput) =>
    route('POST /api/ratings/exchanges/:id', { as: user, params: { id }, body });
  const profileAnswer = (viewer: TestUser | null, id: string) =>
    route('GET /api/profiles/:id', { as: viewer, params: { id } });
  const profileOf = async (viewer: TestUser, user: TestUser) =>
    dataOf(await profileAnswer(viewer, user.id));
  const moderate = (
    user: TestUser,
    id: string,
    verb: 'report' | 'remove' | 'dismiss',
    reason?: string,
  ) => route(`POST /api/ratings/:id/${verb}`, { as: user, params: { id }, body: { reason } });

  /** A listing of the seller's, written about by the buyer and marked sold to them: its exchange. */
  async function recordExchange(name = 'Calculus'): Promise<Exchange> {
    const listing = await createListingAs(t, seller, { name });
    const started = await route('POST /api/conversations', {
      as: buyer,
      body: { listingId: listing._id, text: 'Hi!' },
    });
    expect(started.status).toBe(201);
    const sold = await route('POST /api/conversations/listing/:listingId/sold', {
      as: seller,
      params: { listingId: listing._id },
      body: { buyerId: buyer.id },
    });
    expect(sold.status).toBe(200);
    const exchange = (await exchangesOf(buyer)).exchanges.find((e) => e.listing.id === listing._id);
    expect(exchange).toBeDefined();
    return exchange!;
  }

  it('a sale to a student records an exchange both see; each is asked once by mail', async () => {
    const exchange = await recordExchange('Linear Algebra');
    expect(exchange).toMatchObject({
      role: 'buyer',
      other: { id: seller.id, username: seller.username },
      canRate: true,
      revealed: false,
      mine: null,
      theirs: null,
      theyRated: false,
    });
    const sellerSide = (await exchangesOf(seller)).exchanges.find((e) => e.id === exchange.id);
    expect(sellerSide).toMatchObject({ role: 'seller', other: { id: buyer.id } });
    expect((await exchangesOf(stranger)).exchanges).toEqual([]);
    // The page states the reveal's wait from the setting.
    expect((await exchangesOf(buyer)).revealDays).toBe(REVEAL_DAYS);

    clock = new Date(clock.getTime() + 2 * 60_000);
    await t.app.jobs.runDue();
    clock = new Date(clock.getTime() + 2 * 60_000);
    await t.app.jobs.runDue();
    const asked = (await mailsTo(t, buyer.email)).filter((m) =>
      m.subject.includes('Linear Algebra'),
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]!.text).toContain('/ratings');
    expect(asked[0]!.text).toContain(`until both have rated, or ${REVEAL_DAYS} days have passed.`);
    expect(
      (await mailsTo(t, seller.email)).filter((m) => m.subject.includes('Linear Algebra')),
    ).toHaveLength(1);
  });

  it('only the two students rate, once each: 25 copies at once make one rating', async () => {
    const exchange = await recordExchange();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        rate(buyer, exchange.id, { positive: true, tags: ['on_time'], comment: 'Great' }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(24);
    expect((await rate(buyer, exchange.id, { positive: false })).status).toBe(409);
    // Another student's id, a guessed id, a word: as if the exchange did not exist.
    expect((await rate(stranger, exchange.id, { positive: true })).status).toBe(404);
    expect((await exchangeOf(stranger, exchange.id)).status).toBe(404);
    expect(
      (await rate(buyer, '00000000-0000-4000-8000-000000000000', { positive: true })).status,
    ).toBe(404);
    expect((await rate(buyer, 'not-an-id', { positive: true })).status).toBe(404);
    expect((await route('GET /api/ratings/exchanges')).status).toBe(401);
  });

  it('refuses bad input with a clear 400 and writes nothing', async () => {
    const exchange = await recordExchange();
    const bad = [
      {},
      { positive: 'yes' },
      { positive: true, tags: ['no_show'] },
      { positive: false, tags: ['friendly'] },
      { positive: true, tags: ['rude'] },
      { positive: true, comment: 'x'.repeat(501) },
      { positive: true, comment: 'evil \u202E text' },
      { positive: true, comment: 'bell\u0007' },
    ];
    for (const body of bad) {
      const answer = await call(seller, 'POST', `/api/ratings/exchanges/${exchange.id}`, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json()).toMatchObject({
        success: false,
        message: expect.stringMatching(/.{6}/),
      });
    }
    expect((await exchangesOf(seller)).exchanges.find((e) => e.id === exchange.id)?.canRate).toBe(
      true,
    );
  });

  it('hides both ratings until both rated, then shows both at once; never an e-mail', async () => {
    const exchange = await recordExchange();
    const first = await rate(buyer, exchange.id, {
      positive: true,
      tags: ['on_time', 'friendly', 'on_time'],
      comment: '  Quick and kind  ',
    });
    expect(first.status).toBe(201);
    const mine = dataOf(first).exchange;
    expect(mine.mine).toMatchObject({
      positive: true,
      tags: ['on_time', 'friendly'],
      comment: 'Quick and kind',
    });
    expect(mine.revealed).toBe(false);
    // The seller learns that the buyer rated, never how.
    const waiting = dataOf(await exchangeOf(seller, exchange.id));
    expect(waiting).toMatchObject({ theyRated: true, theirs: null, revealed: false });
    expect(JSON.stringify(waiting)).not.toContain('Quick and kind');
    expect((await profileOf(stranger, seller)).comments.map((c) => c.comment)).not.toContain(
      'Quick and kind',
    );

    const second = await rate(seller, exchange.id, { positive: false, tags: ['no_show'] });
    expect(second.status).toBe(201);
    const both = dataOf(second).exchange;
    expect(both.revealed).toBe(true);
    expect(both.theirs).toMatchObject({ comment: 'Quick and kind', raterRole: 'buyer' });
    const buyerView = dataOf(await exchangeOf(buyer, exchange.id));
    expect(buyerView).toMatchObject({
      revealed: true,
      theirs: { positive: false, tags: ['no_show'] },
    });
    const everything = JSON.stringify([
      both,
      buyerView,
      await profileOf(stranger, seller),
      await profileOf(stranger, buyer),
    ]);
    expect(everything).not.toContain(seller.email);
    expect(everything).not.toContain(buyer.email);
  });

  it('reveals a lone rating RATING_REVEAL_DAYS after the sale (the injected clock)', async () => {
    const exchange = await recordExchange('Lonely Rating');
    expect(
      (await rate(seller, exchange.id, { positive: true, comment: 'Paid on time' })).status,
    ).toBe(201);
    const hidden = dataOf(await exchangeOf(buyer, exchange.id));
    expect(hidden).toMatchObject({ revealed: false, theirs: null });
    clock = new Date(new Date(exchange.soldAt).getTime() + REVEAL_DAYS * DAY - 60_000);
    expect(dataOf(await exchangeOf(buyer, exchange.id))).toMatchObject({
      revealed: false,
      theirs: null,
    });
    clock = new Date(new Date(exchange.soldAt).getTime() + REVEAL_DAYS * DAY + 60_000);
    expect(dataOf(await exchangeOf(buyer, exchange.id))).toMatchObject({
      revealed: true,
      theirs: { comment: 'Paid on time' },
    });
    // The buyer may still rate after the reveal.
    expect((await rate(buyer, exchange.id, { positive: true })).status).toBe(201);
  });

  it('the profile shows exchanges, the share from three ratings, top tags, comments, visible listings', async () => {
    const newSeller = await createUser(t);
    const sellTo = async (name: string, positive: boolean, tags: RateExchangeInput['tags']) => {
      const listing = await createListingAs(t, newSeller, { name });
      await route('POST /api/conversations', {
        as: buyer,
        body: { listingId: listing._id, text: 'Hi' },
      });
      await route('POST /api/conversations/listing/:listingId/sold', {
        as: newSeller,
        params: { listingId: listing._id },
        body: { buyerId: buyer.id },
      });
      const e = (await exchangesOf(newSeller)).exchanges.find((x) => x.listing.id === listing._id)!;
      await rate(buyer, e.id, { positive, tags, comment: `${name} comment` });
      await rate(newSeller, e.id, { positive: true });
    };
    await sellTo('Book One', true, ['on_time', 'as_described']);
    await sellTo('Book Two', true, ['on_time']);
    let profile = await profileOf(stranger, newSeller);
    expect(profile).toMatchObject({
      username: expect.any(String),
      completedExchanges: 2,
      ratingCount: 2,
      positivePercent: null,
    });
    await sellTo('Book Three', false, ['no_show']);
    const onSale = await createListingAs(t, newSeller, { name: 'Still For Sale' });
    profile = await profileOf(stranger, newSeller);
    expect(profile.positivePercent).toBe(67);
    expect(profile.topTags[0]).toEqual({ tag: 'on_time', count: 2 });
    expect(profile.comments.map((c) => c.comment)).toContain('Book Three comment');
    expect(profile.listings.map((l) => l._id)).toEqual([onSale._id]);
    expect(profile.memberSince).toMatch(/^\d{4}-/);
    // A hidden listing stays off the profile (the one visibility rule).
    await t.database.db.execute(
      (await import('drizzle-orm'))
        .sql`UPDATE listings SET status = 'hidden' WHERE id = ${onSale._id}`,
    );
    expect((await profileOf(stranger, newSeller)).listings).toEqual([]);
    expect((await profileAnswer(stranger, 'not-a-user')).status).toBe(404);
    expect((await profileAnswer(stranger, '00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    );
    expect((await profileAnswer(null, newSeller.id)).status).toBe(401);
  });

  it('a revealed rating can be reported; moderators remove it (audit log) or dismiss the reports', async () => {
    clock = new Date();
    const exchange = await recordExchange('Reported Rating');
    const given = await rate(buyer, exchange.id, { positive: false, comment: 'Rude words here' });
    const ratingId = dataOf(given).exchange.mine!.id;
    // Not revealed yet: nobody can report what nobody sees.
    expect((await moderate(seller, ratingId, 'report')).status).toBe(404);
    await rate(seller, exchange.id, { positive: true });
    const reports = await Promise.all(
      Array.from({ length: 5 }, () => moderate(seller, ratingId, 'report', 'Insulting')),
    );
    expect(reports.every((r) => r.status === 200)).toBe(true);
    expect((await route('GET /api/ratings/reported', { as: seller })).status).toBe(403);
    const queue = dataOf(await route('GET /api/ratings/reported', { as: moderator }));
    const item = queue.ratings.find((r) => r.rating.id === ratingId);
    expect(item).toMatchObject({ reports: 1, reasons: ['Insulting'] });
    expect(JSON.stringify(queue)).not.toContain(buyer.email);

    const removals = await Promise.all(
      Array.from({ length: 5 }, () => moderate(moderator, ratingId, 'remove', 'Insults')),
    );
    expect(removals.filter((r) => r.status === 200)).toHaveLength(1);
    expect(removals.filter((r) => r.status === 409)).toHaveLength(4);
    expect(dataOf(await exchangeOf(seller, exchange.id))).toMatchObject({
      revealed: true,
      theirs: null,
    });
    expect(JSON.stringify(await profileOf(stranger, seller))).not.toContain('Rude words here');
    const log = dataOf(await route('GET /api/moderation/log', { as: moderator }));
    expect(log.filter((e) => e.ratingId === ratingId)).toEqual([
      expect.objectContaining({ action: 'remove_rating', reason: 'Insults', userId: buyer.id }),
    ]);
    expect((await moderate(moderator, ratingId, 'dismiss')).status).toBe(409);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await moderate(moderator, unknown, 'remove')).status).toBe(404);
  });
});
