import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listings } from '../../db/schema';
import { createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { createListingAs } from '../../../test/listing-fixtures';
import { mailsTo } from '../../../test/outbox';
import { listingExpiryDeps, runListingExpiry } from './listing-expiry';
import { signListingLink } from './listing-links';
import { DAY, expectLinkLifetimeStated, expirySuite, linkOf } from './listing-expiry.test-support';

describe(`one-click links of the reminder and expiry mails (${TEST_ENGINE})`, () => {
  const suite = expirySuite();
  const { advance, clock, row, runJob, search } = suite;
  let t: TestApp;
  beforeAll(() => {
    t = suite.app();
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
    expectLinkLifetimeStated(mails[0]!, linkOf(mails[0]!, 'Sold'), clock());
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
    expect(after.confirmedAt.getTime()).toBe(clock().getTime());
    expect(after.expiresAt.getTime()).toBe(clock().getTime() + 30 * DAY);
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

  it('mails the seller once when the listing expires, with a relist link that works once', async () => {
    const user = await createUser(t);
    const listing = await createListingAs(t, user);
    // No server ran during the whole reminder window: the first run after expiry expires it.
    advance(30 * DAY + 60_000);
    const deps = listingExpiryDeps(t.app);
    await Promise.all([runListingExpiry(deps, clock()), runListingExpiry(deps, clock())]);
    await runJob();
    const mails = await mailsTo(t, user.email);
    expect(mails.map((m) => m.subject)).toEqual([
      `Expired: "${listing.name}" - relist it in one click`,
    ]);
    const relist = linkOf(mails[0]!, 'Relist it in one click');
    expectLinkLifetimeStated(mails[0]!, relist, clock());
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
      validUntil: new Date(clock().getTime() + DAY),
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
      validUntil: new Date(clock().getTime() + DAY),
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
      validUntil: new Date(clock().getTime() + DAY),
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
});
