import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listings } from '../../db/schema';
import { endDueHolds } from './listings.repository';
import { catalogueVersion, jobs } from '../../db/platform.schema';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { createListingAs, insertListings } from '../../../test/listing-fixtures';
import { mailsTo } from '../../../test/outbox';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import { expireDueListings, listingExpiryDeps, sendExpiryReminders } from './listing-expiry';
import { DAY, expirySuite } from './listing-expiry.test-support';

// The links the reminders and the expiry mail carry: listing-links.test.ts.
describe(`listing expiry and its reminders (${TEST_ENGINE})`, () => {
  const suite = expirySuite();
  const { advance, clock, row, runJob, search } = suite;
  let t: TestApp;
  beforeAll(() => {
    t = suite.app();
  });

  it('gives a new listing an expiry LISTING_LIFETIME_DAYS away, and answers it', async () => {
    const listing = await createListingAs(t, await createUser(t));
    expect(listing.confirmedAt).toBe(clock().toISOString());
    expect(listing.expiresAt).toBe(new Date(clock().getTime() + 30 * DAY).toISOString());
    const [schedule] = await t.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.name, 'listing-expiry'));
    expect(schedule?.intervalMs).toBe(15 * 60_000);
  });

  it("leaves the catalogue's version (and so every cached search) alone when nothing is due", async () => {
    const version = async () => {
      const [kept] = await t.database.db.select().from(catalogueVersion);
      return Number(kept?.version);
    };
    const deps = listingExpiryDeps(t.app);
    // Whatever earlier tests left due goes first; then nothing is due.
    await expireDueListings(deps, clock());
    await sendExpiryReminders(deps, clock());
    await endDueHolds(t.database.db, clock());
    const before = await version();
    await expireDueListings(deps, clock());
    await sendExpiryReminders(deps, clock());
    expect(await endDueHolds(t.database.db, clock())).toEqual([]);
    expect(await version()).toBe(before);
    // Something due still moves it.
    const user = await createUser(t);
    await insertListings(t, user.id, [{ name: 'due now', expiresAt: clock() }]);
    const afterInsert = await version();
    await expireDueListings(deps, clock());
    expect(await version()).toBeGreaterThan(afterInsert);
  });

  it('expires a listing due exactly now, not one due a millisecond later (the cut-off, pinned)', async () => {
    const user = await createUser(t);
    const [due, notYet] = await insertListings(t, user.id, [
      { name: 'due now', expiresAt: clock() },
      { name: 'due in a millisecond', expiresAt: new Date(clock().getTime() + 1) },
    ]);
    await expireDueListings(listingExpiryDeps(t.app), clock());
    expect((await row(due!)).status).toBe('expired');
    expect((await row(notYet!)).status).toBe('active');
  });

  it('reminds a listing expiring exactly 7 days (1 day) from now, not a millisecond later', async () => {
    const user = await createUser(t);
    const at = (ms: number) => new Date(clock().getTime() + ms);
    const [week, weekLater, day, dayLater] = await insertListings(t, user.id, [
      { name: 'in a week', expiresAt: at(7 * DAY) },
      { name: 'in a week and a millisecond', expiresAt: at(7 * DAY + 1) },
      { name: 'in a day', expiresAt: at(DAY), reminded7dAt: at(-DAY) },
      { name: 'in a day and a millisecond', expiresAt: at(DAY + 1), reminded7dAt: at(-DAY) },
    ]);
    await sendExpiryReminders(listingExpiryDeps(t.app), clock());
    expect((await row(week!)).reminded7dAt?.getTime()).toBe(clock().getTime());
    expect((await row(weekLater!)).reminded7dAt).toBeNull();
    expect((await row(day!)).reminded1dAt?.getTime()).toBe(clock().getTime());
    expect((await row(dayLater!)).reminded1dAt).toBeNull();
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
    expect(back.expiresAt.getTime()).toBe(clock().getTime() + 30 * DAY);
    expect((await search()).map((l) => l._id)).toContain(listing._id);
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
