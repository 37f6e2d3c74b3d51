import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { routeCaller } from '../../../test/api-caller';
import { listings } from '../../db/schema';
import { jobs } from '../../db/platform.schema';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createListingAs, insertListings } from '../../../test/listing-fixtures';
import { mailsTo, type SentMail } from '../../../test/outbox';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import {
  expireDueListings,
  listingExpiryDeps,
  runListingExpiry,
  sendExpiryReminders,
} from './listing-expiry';
import { signListingLink } from './listing-links';

const DAY = 24 * 60 * 60_000;
let clock = new Date('2027-01-10T12:00:00Z');
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

/** What a mail says of its links' lifetime matches the time its links are signed for. */
function expectLinkLifetimeStated(mail: SentMail, token: string, sentAt: Date) {
  const validUntilMs = Number(token.split('~')[2]) * 1000;
  const days = Math.round((validUntilMs - sentAt.getTime()) / DAY);
  expect(days).toBeGreaterThan(1);
  expect(mail.text).toContain(`works once, for ${days} days.`);
}

/** The token of one of a mail's links ("Still available", "Sold", "Remove", "one click"). */
function linkOf(mail: SentMail, label: string): string {
  const match = new RegExp(`${label}: https?://\\S+/listing-link/(\\S+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no "${label}" link in: ${mail.text}`);
  return match[1];
}

describe(`listing expiry, reminders and one-click links (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  const search = async () =>
    dataOf(await routeCaller(() => t)('GET /api/listing/get', { query: { limit: 50 } }));
  const row = async (id: string) =>
    (await t.database.db.select().from(listings).where(eq(listings.id, id)))[0]!;
  const runJob = async () => {
    await t.app.jobs.runDue();
  };

  beforeAll(async () => {
    t = await createTestApp(
      { ...GENEROUS_LIMITS, LISTING_LIFETIME_DAYS: '30' },
      { now: () => clock },
    );
    seller = await createUser(t);
  });
  afterAll(async () => t.close());

  it('gives a new listing an expiry LISTING_LIFETIME_DAYS away, and answers it', async () => {
    const listing = await createListingAs(t, seller);
    expect(listing.confirmedAt).toBe(clock.toISOString());
    expect(listing.expiresAt).toBe(new Date(clock.getTime() + 30 * DAY).toISOString());
    const [schedule] = await t.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.name, 'listing-expiry'));
    expect(schedule?.intervalMs).toBe(15 * 60_000);
  });

  it('expires a listing due exactly now, not one due a millisecond later (the cut-off, pinned)', async () => {
    const user = await createUser(t);
    const [due, notYet] = await insertListings(t, user.id, [
      { name: 'due now', expiresAt: clock },
      { name: 'due in a millisecond', expiresAt: new Date(clock.getTime() + 1) },
    ]);
    await expireDueListings(listingExpiryDeps(t.app), clock);
    expect((await row(due!)).status).toBe('expired');
    expect((await row(notYet!)).status).toBe('active');
  });

  it('reminds a listing expiring exactly 7 days (1 day) from now, not a millisecond later', async () => {
    const user = await createUser(t);
    const at = (ms: number) => new Date(clock.getTime() + ms);
    const [week, weekLater, day, dayLater] = await insertListings(t, user.id, [
      { name: 'in a week', expiresAt: at(7 * DAY) },
      { name: 'in a week and a millisecond', expiresAt: at(7 * DAY + 1) },
      { name: 'in a day', expiresAt: at(DAY), reminded7dAt: at(-DAY) },
      { name: 'in a day and a millisecond', expiresAt: at(DAY + 1), reminded7dAt: at(-DAY) },
    ]);
    await sendExpiryReminders(listingExpiryDeps(t.app), clock);
    expect((await row(week!)).reminded7dAt?.getTime()).toBe(clock.getTime());
    expect((await row(weekLater!)).reminded7dAt).toBeNull();
    expect((await row(day!)).reminded1dAt?.getTime()).toBe(clock.getTime());
    expect((await row(dayLater!)).reminded1dAt).toBeNull();
  });

  it('mails 7 days and 1 day before, once each, with links that extend, sell and remove', async () => {
    const user = await createUser(t);
    const listing = await createListingAs(t, user);
    advance(23 * DAY + 60_000);
    await runJob();
    await runJob(); // a second run (or another server) claims nothing more
    advance(16 * 60_000);
    await runJob();
    let mails = await mailsTo(t, user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(listing.name);
    expectLinkLifetimeStated(mails[0]!, linkOf(mails[0]!, 'Sold'), clock);
    // The expiry as the campus reads it (CAMPUS_TIME_ZONE, New York by default), not in UTC.
    expect(mails[0]!.text).toContain(
      'leaves the marketplace on Tuesday, February 9, 2027 at 7:00 AM EST.',
    );
    advance(6 * DAY + 12 * 60 * 60_000);
    await runJob();
    advance(16 * 60_000);
    await runJob();
    mails = await mailsTo(t, user.email);
    expect(mails).toHaveLength(2);

    const extend = linkOf(mails[1]!, 'Still available');
    const sold = linkOf(mails[1]!, 'Sold');
    // GET only describes: a mail scanner's fetch changes nothing.
    const described = await t.app.inject({ url: `/api/listing-link/${extend}` });
    expect(described.statusCode).toBe(200);
    expect(described.json()).toMatchObject({ action: 'extend', listing: { _id: listing._id } });
    const before = await row(listing._id);
    expect(before.confirmedAt.toISOString()).toBe(listing.confirmedAt);

    const used = await t.app.inject({ method: 'POST', url: `/api/listing-link/${extend}` });
    expect(used.statusCode).toBe(200);
    const after = await row(listing._id);
    expect(after.confirmedAt.getTime()).toBe(clock.getTime());
    expect(after.expiresAt.getTime()).toBe(clock.getTime() + 30 * DAY);
    expect(after.reminded7dAt).toBeNull();

    // Reused, and the other links of the same mail: the listing was confirmed since.
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/listing-link/${extend}` })).statusCode,
    ).toBe(410);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/listing-link/${sold}` })).statusCode,
    ).toBe(410);
    expect((await row(listing._id)).status).toBe('active');
  });

  it('expires a listing nobody confirmed: out of search, kept for its owner and its page', async () => {
    const user = await createUser(t);
    const listing = await createListingAs(t, user);
    expect((await search()).map((l) => l._id)).toContain(listing._id);
    advance(30 * DAY + 60_000);
    await runJob();
    expect((await row(listing._id)).status).toBe('expired');
    expect((await search()).map((l) => l._id)).not.toContain(listing._id);
    const page = await t.app.inject({ url: `/api/listing/get/${listing._id}` });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ status: 'expired' });
    const own = await t.app.inject({
      url: `/api/user/listings/${user.id}`,
      headers: { cookie: user.cookie },
    });
    expect(own.json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ _id: listing._id, status: 'expired' })]),
    );

    // Relist from the profile: back in search, confirmed now, a new expiry.
    const relist = await t.app.inject({
      method: 'POST',
      url: `/api/listing/relist/${listing._id}`,
      headers: { cookie: user.cookie },
    });
    expect(relist.statusCode).toBe(200);
    const back = await row(listing._id);
    expect(back.status).toBe('active');
    expect(back.expiresAt.getTime()).toBe(clock.getTime() + 30 * DAY);
    expect((await search()).map((l) => l._id)).toContain(listing._id);
  });

  it('mails the seller once when the listing expires, with a relist link that works once', async () => {
    const user = await createUser(t);
    const listing = await createListingAs(t, user);
    // No server ran during the whole reminder window: the first run after expiry expires it.
    advance(30 * DAY + 60_000);
    const deps = listingExpiryDeps(t.app);
    await Promise.all([runListingExpiry(deps, clock), runListingExpiry(deps, clock)]);
    await runJob();
    const mails = await mailsTo(t, user.email);
    expect(mails.map((m) => m.subject)).toEqual([
      `Expired: "${listing.name}" - relist it in one click`,
    ]);
    const relist = linkOf(mails[0]!, 'Relist it in one click');
    expectLinkLifetimeStated(mails[0]!, relist, clock);
    const described = await t.app.inject({ url: `/api/listing-link/${relist}` });
    expect(described.json()).toMatchObject({ action: 'extend', listing: { status: 'expired' } });
    const used = await t.app.inject({ method: 'POST', url: `/api/listing-link/${relist}` });
    expect(used.statusCode).toBe(200);
    expect(used.json()).toMatchObject({ message: 'Your listing is back on the marketplace' });
    expect((await row(listing._id)).status).toBe('active');
    expect((await search()).map((l) => l._id)).toContain(listing._id);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/listing-link/${relist}` })).statusCode,
    ).toBe(410);
  });

  it('sends a week reminder missed while no server ran late, then the day one; never both at once', async () => {
    const late = await createUser(t);
    const lateListing = await createListingAs(t, late);
    const lastDay = await createUser(t);
    await createListingAs(t, lastDay);
    // Down from before the 7-day window until 3 days before expiry.
    advance(27 * DAY);
    await runJob();
    expect((await mailsTo(t, late.email)).map((m) => m.subject)).toEqual([
      `Is "${lateListing.name}" still available?`,
    ]);
    expect(await mailsTo(t, lastDay.email)).toHaveLength(1);
    advance(2 * DAY + 60_000);
    await runJob();
    await runJob();
    expect(await mailsTo(t, late.email)).toHaveLength(2);

    // Down until the last day: only the day's reminder, and the week's never follows.
    const quiet = await createUser(t);
    const quietListing = await createListingAs(t, quiet);
    advance(29 * DAY + 12 * 60 * 60_000);
    await runJob();
    advance(16 * 60_000);
    await runJob();
    const mails = await mailsTo(t, quiet.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Still available');
    const reminded = await row(quietListing._id);
    expect(reminded.reminded1dAt).not.toBeNull();
    expect(reminded.reminded7dAt).not.toBeNull();
  });

  it("tells savers of a sale and alerts of a relist made through a mail's link", async () => {
    const user = await createUser(t);
    const saver = await createUser(t);
    const listing = await createListingAs(t, user, { name: 'Thermodynamics Demystified' });
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/saved/add/${listing._id}`,
      headers: { cookie: saver.cookie },
    });
    expect(saved.statusCode).toBe(200);
    advance(30 * DAY + 60_000);
    await runJob();
    const expired = (await mailsTo(t, user.email)).at(-1)!;
    const watcher = await createUser(t);
    await t.app.inject({
      method: 'POST',
      url: '/api/alerts/create',
      headers: { cookie: watcher.cookie },
      payload: { searchTerm: 'thermodynamics' },
    });
    const relisted = await t.app.inject({
      method: 'POST',
      url: `/api/listing-link/${linkOf(expired, 'Relist it in one click')}`,
    });
    expect(relisted.statusCode).toBe(200);
    await runJob();
    expect((await mailsTo(t, watcher.email)).map((m) => m.subject)).toEqual([
      'Listed: Thermodynamics Demystified',
    ]);

    const sold = signListingLink(t.app.config.sessionSecret, {
      listingId: listing._id,
      action: 'sold',
      validUntil: new Date(clock.getTime() + DAY),
      confirmedAt: (await row(listing._id)).confirmedAt,
    });
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/listing-link/${sold}` })).statusCode,
    ).toBe(200);
    await runJob();
    const news = await mailsTo(t, saver.email);
    expect(news).toHaveLength(1);
    expect(news[0]!.text).toContain('Sold');
  });

  it('lets "Still available" bring back a listing that expired meanwhile', async () => {
    const user = await createUser(t);
    const listing = await createListingAs(t, user);
    advance(29 * DAY + 60_000);
    await runJob();
    const mail = (await mailsTo(t, user.email)).at(-1)!;
    advance(DAY);
    await runJob();
    expect((await row(listing._id)).status).toBe('expired');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/listing-link/${linkOf(mail, 'Still available')}`,
    });
    expect(res.statusCode).toBe(200);
    expect((await row(listing._id)).status).toBe('active');
  });

  it('"Sold" marks it sold and "Remove" deletes it', async () => {
    const user = await createUser(t);
    const a = await createListingAs(t, user);
    const b = await createListingAs(t, user, { name: 'Organic Chemistry' });
    advance(23 * DAY + 60_000);
    await runJob();
    const mails = await mailsTo(t, user.email);
    const mailOf = (name: string) => mails.find((m) => m.subject.includes(name))!;
    const sold = await t.app.inject({
      method: 'POST',
      url: `/api/listing-link/${linkOf(mailOf(a.name), 'Sold')}`,
    });
    expect(sold.statusCode).toBe(200);
    expect((await row(a._id)).status).toBe('sold');
    const removed = await t.app.inject({
      method: 'POST',
      url: `/api/listing-link/${linkOf(mailOf('Organic Chemistry'), 'Remove')}`,
    });
    expect(removed.statusCode).toBe(200);
    expect(await t.database.db.select().from(listings).where(eq(listings.id, b._id))).toHaveLength(
      0,
    );
  });

  it('refuses forged, tampered and expired links, changing nothing', async () => {
    const user = await createUser(t);
    const listing = await createListingAs(t, user);
    const current = await row(listing._id);
    const genuine = signListingLink(t.app.config.sessionSecret, {
      listingId: listing._id,
      action: 'sold',
      validUntil: new Date(clock.getTime() + DAY),
      confirmedAt: current.confirmedAt,
    });
    const extendInstead = genuine.replace('~sold~', '~remove~');
    const otherKey = genuine.slice(0, -43) + 'A'.repeat(43);
    for (const token of [extendInstead, otherKey, 'nonsense', `${listing._id}~sold~1~2~x`]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/listing-link/${token}` });
      expect(res.statusCode, token).toBe(400);
      expect(res.json()).toMatchObject({ success: false, statusCode: 400 });
    }
    advance(DAY + 1000);
    const late = await t.app.inject({ method: 'POST', url: `/api/listing-link/${genuine}` });
    expect(late.statusCode).toBe(410);
    expect((await row(listing._id)).status).toBe('active');
  });

  it('of 25 copies of one link at once, exactly one acts', async () => {
    const user = await createUser(t);
    const listing = await createListingAs(t, user);
    const token = signListingLink(t.app.config.sessionSecret, {
      listingId: listing._id,
      action: 'extend',
      validUntil: new Date(clock.getTime() + DAY),
      confirmedAt: (await row(listing._id)).confirmedAt,
    });
    advance(60_000);
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        t.app.inject({ method: 'POST', url: `/api/listing-link/${token}` }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 410)).toHaveLength(24);
  });

  it.each([
    // 23:59:59 on 8 May on the campus's clocks (summer time): not 23:59:59 UTC, which is
    // 7:59 PM in New York and 4:59 PM in Los Angeles.
    ['America/New_York', '2027-05-09T03:59:59.000Z'],
    ['America/Los_Angeles', '2027-05-09T06:59:59.000Z'],
  ])(
    'takes the next end of term, at the end of that day in the campus time zone (%s)',
    async (zone, endsAt) => {
      let now = new Date('2027-01-10T12:00:00Z');
      const termApp = await createTestApp(
        {
          ...GENEROUS_LIMITS,
          TERM_END_DATES: '2027-01-12, 2027-05-08,2027-12-18',
          CAMPUS_TIME_ZONE: zone,
        },
        { now: () => now },
      );
      try {
        const user = await createUser(termApp);
        const listing = await createListingAs(termApp, user);
        // 2027-01-12 is under a week away: the next one.
        expect(listing.expiresAt).toBe(endsAt);
        const status = async () =>
          (
            await termApp.database.db
              .select({ status: listings.status })
              .from(listings)
              .where(eq(listings.id, listing._id))
          )[0]!.status;
        // The evening of 8 May on campus (and already 9 May in UTC): still on the marketplace.
        now = new Date(new Date(endsAt).getTime() - 60 * 60_000);
        await expireDueListings(listingExpiryDeps(termApp.app), now);
        expect(await status()).toBe('active');
        now = new Date(new Date(endsAt).getTime() + 1000);
        await expireDueListings(listingExpiryDeps(termApp.app), now);
        expect(await status()).toBe('expired');
      } finally {
        await termApp.close();
      }
    },
  );
});
