import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Exchange, ExchangeList, PublicProfile } from '@campus-books/common/rating.schemas';
import type { ModerationLogEntry } from '@campus-books/common/moderation.schemas';
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

  const call = apiCaller(() => t);
  const exchangesOf = async (user: TestUser) =>
    (await call(user, 'GET', '/api/ratings/exchanges')).json() as ExchangeList;
  const rate = (user: TestUser, id: string, body: unknown) =>
    call(user, 'POST', `/api/ratings/exchanges/${id}`, body);
  const profileOf = async (viewer: TestUser, user: TestUser) =>
    (await call(viewer, 'GET', `/api/profiles/${user.id}`)).json() as PublicProfile;

  /** A listing of the seller's, written about by the buyer and marked sold to them: its exchange. */
  async function recordExchange(name = 'Calculus'): Promise<Exchange> {
    const listing = await createListingAs(t, seller, { name });
    expect(
      (await call(buyer, 'POST', '/api/conversations', { listingId: listing._id, text: 'Hi!' }))
        .statusCode,
    ).toBe(201);
    const sold = await call(seller, 'POST', `/api/conversations/listing/${listing._id}/sold`, {
      buyerId: buyer.id,
    });
    expect(sold.statusCode).toBe(200);
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
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(24);
    expect((await rate(buyer, exchange.id, { positive: false })).statusCode).toBe(409);
    // Another student's id, a guessed id, a word: as if the exchange did not exist.
    expect((await rate(stranger, exchange.id, { positive: true })).statusCode).toBe(404);
    expect((await call(stranger, 'GET', `/api/ratings/exchanges/${exchange.id}`)).statusCode).toBe(
      404,
    );
    expect(
      (await rate(buyer, '00000000-0000-4000-8000-000000000000', { positive: true })).statusCode,
    ).toBe(404);
    expect((await rate(buyer, 'not-an-id', { positive: true })).statusCode).toBe(404);
    expect((await call(null, 'GET', '/api/ratings/exchanges')).statusCode).toBe(401);
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
      const answer = await rate(seller, exchange.id, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect((answer.json() as { message: string }).message.length).toBeGreaterThan(5);
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
    expect(first.statusCode).toBe(201);
    const mine = (first.json() as { exchange: Exchange }).exchange;
    expect(mine.mine).toMatchObject({
      positive: true,
      tags: ['on_time', 'friendly'],
      comment: 'Quick and kind',
    });
    expect(mine.revealed).toBe(false);
    // The seller learns that the buyer rated, never how.
    const waiting = await call(seller, 'GET', `/api/ratings/exchanges/${exchange.id}`);
    expect(waiting.json()).toMatchObject({ theyRated: true, theirs: null, revealed: false });
    expect(waiting.body).not.toContain('Quick and kind');
    expect((await profileOf(stranger, seller)).comments.map((c) => c.comment)).not.toContain(
      'Quick and kind',
    );

    const second = await rate(seller, exchange.id, { positive: false, tags: ['no_show'] });
    expect(second.statusCode).toBe(201);
    const both = (second.json() as { exchange: Exchange }).exchange;
    expect(both.revealed).toBe(true);
    expect(both.theirs).toMatchObject({ comment: 'Quick and kind', raterRole: 'buyer' });
    const buyerView = (await call(buyer, 'GET', `/api/ratings/exchanges/${exchange.id}`)).json();
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
      (await rate(seller, exchange.id, { positive: true, comment: 'Paid on time' })).statusCode,
    ).toBe(201);
    const hidden = (await call(buyer, 'GET', `/api/ratings/exchanges/${exchange.id}`)).json();
    expect(hidden).toMatchObject({ revealed: false, theirs: null });
    clock = new Date(new Date(exchange.soldAt).getTime() + REVEAL_DAYS * DAY - 60_000);
    expect(
      (await call(buyer, 'GET', `/api/ratings/exchanges/${exchange.id}`)).json(),
    ).toMatchObject({ revealed: false, theirs: null });
    clock = new Date(new Date(exchange.soldAt).getTime() + REVEAL_DAYS * DAY + 60_000);
    expect(
      (await call(buyer, 'GET', `/api/ratings/exchanges/${exchange.id}`)).json(),
    ).toMatchObject({ revealed: true, theirs: { comment: 'Paid on time' } });
    // The buyer may still rate after the reveal.
    expect((await rate(buyer, exchange.id, { positive: true })).statusCode).toBe(201);
  });

  it('the profile shows exchanges, the share from three ratings, top tags, comments, visible listings', async () => {
    const newSeller = await createUser(t);
    const sellTo = async (name: string, positive: boolean, tags: string[]) => {
      const listing = await createListingAs(t, newSeller, { name });
      await call(buyer, 'POST', '/api/conversations', { listingId: listing._id, text: 'Hi' });
      await call(newSeller, 'POST', `/api/conversations/listing/${listing._id}/sold`, {
        buyerId: buyer.id,
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
    expect((await call(stranger, 'GET', '/api/profiles/not-a-user')).statusCode).toBe(404);
    expect(
      (await call(stranger, 'GET', '/api/profiles/00000000-0000-4000-8000-000000000000'))
        .statusCode,
    ).toBe(404);
    expect((await call(null, 'GET', `/api/profiles/${newSeller.id}`)).statusCode).toBe(401);
  });

  it('a revealed rating can be reported; moderators remove it (audit log) or dismiss the reports', async () => {
    clock = new Date();
    const exchange = await recordExchange('Reported Rating');
    const given = await rate(buyer, exchange.id, { positive: false, comment: 'Rude words here' });
    const ratingId = (given.json() as { exchange: Exchange }).exchange.mine!.id;
    // Not revealed yet: nobody can report what nobody sees.
    expect((await call(seller, 'POST', `/api/ratings/${ratingId}/report`, {})).statusCode).toBe(
      404,
    );
    await rate(seller, exchange.id, { positive: true });
    const reports = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(seller, 'POST', `/api/ratings/${ratingId}/report`, { reason: 'Insulting' }),
      ),
    );
    expect(reports.every((r) => r.statusCode === 200)).toBe(true);
    expect((await call(seller, 'GET', '/api/ratings/reported')).statusCode).toBe(403);
    const queue = (await call(moderator, 'GET', '/api/ratings/reported')).json() as {
      ratings: { rating: { id: string; comment: string }; reports: number; reasons: string[] }[];
    };
    const item = queue.ratings.find((r) => r.rating.id === ratingId);
    expect(item).toMatchObject({ reports: 1, reasons: ['Insulting'] });
    expect(JSON.stringify(queue)).not.toContain(buyer.email);

    const removals = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(moderator, 'POST', `/api/ratings/${ratingId}/remove`, { reason: 'Insults' }),
      ),
    );
    expect(removals.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(removals.filter((r) => r.statusCode === 409)).toHaveLength(4);
    expect(
      (await call(seller, 'GET', `/api/ratings/exchanges/${exchange.id}`)).json(),
    ).toMatchObject({ revealed: true, theirs: null });
    expect(JSON.stringify(await profileOf(stranger, seller))).not.toContain('Rude words here');
    const log = (
      await call(moderator, 'GET', '/api/moderation/log')
    ).json() as ModerationLogEntry[];
    expect(log.filter((e) => e.ratingId === ratingId)).toEqual([
      expect.objectContaining({ action: 'remove_rating', reason: 'Insults', userId: buyer.id }),
    ]);
    expect((await call(moderator, 'POST', `/api/ratings/${ratingId}/dismiss`, {})).statusCode).toBe(
      409,
    );
    expect(
      (
        await call(
          moderator,
          'POST',
          '/api/ratings/00000000-0000-4000-8000-000000000000/remove',
          {},
        )
      ).statusCode,
    ).toBe(404);
  });
});
