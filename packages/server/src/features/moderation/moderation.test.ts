import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listings, sessions } from '../../db/schema';
import { listingReports, moderationLog } from '../../db/moderation.schema';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import { createListingAs } from '../../../test/listing-fixtures';
import { mailsTo } from '../../../test/outbox';
import { findListingPageHead } from '../listings/listing-page-meta';
import { ACCOUNT_SUSPENDED } from './moderation.messages';

const MODERATOR = `moderator.${Date.now()}@richmond.edu`;
const UNVERIFIED_MODERATOR = `unverified.moderator.${Date.now()}@richmond.edu`;

describe(`reports, moderators, suspension and the audit log (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let moderator: TestUser;
  const post = (url: string, cookie: string | undefined, payload?: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: cookie ? { cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const get = (url: string, cookie?: string) =>
    t.app.inject({ url, headers: cookie ? { cookie } : {} });
  const report = (listingId: string, user: TestUser, body: unknown = { reason: 'spam_or_scam' }) =>
    post(`/api/reports/${listingId}`, user.cookie, body);
  const searchIds = async () =>
    ((await get('/api/listing/get?limit=50')).json() as { _id: string }[]).map((l) => l._id);
  const status = async (id: string) =>
    (await t.database.db.select().from(listings).where(eq(listings.id, id)))[0]?.status;

  beforeAll(async () => {
    t = await createTestApp({
      ...GENEROUS_LIMITS,
      REPORT_MIN_ACCOUNT_AGE_DAYS: '0',
      REPORT_HIDES_PER_DAY: '1000',
      MODERATOR_EMAILS: ` ${MODERATOR.toUpperCase()} ,${UNVERIFIED_MODERATOR}`,
    });
    moderator = await createUser(t, { email: MODERATOR });
  });
  afterAll(async () => t.close());

  describe('reports', () => {
    it('takes one report per student per listing: a second is a 409', async () => {
      const seller = await createUser(t);
      const listing = await createListingAs(t, seller);
      const student = await createUser(t);
      const first = await report(listing._id, student, { reason: 'other', note: 'Looks copied' });
      expect(first.statusCode).toBe(201);
      const again = await report(listing._id, student, { reason: 'offensive' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        success: false,
        message: 'You already reported this listing',
      });
      const rows = await t.database.db
        .select()
        .from(listingReports)
        .where(eq(listingReports.listingId, listing._id));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ reason: 'other', note: 'Looks copied' });
    });

    it('of 25 copies of one report at once, exactly one is a 201 and the rest 409', async () => {
      const seller = await createUser(t);
      const listing = await createListingAs(t, seller);
      const student = await createUser(t);
      const answers = await Promise.all(
        Array.from({ length: 25 }, () => report(listing._id, student)),
      );
      expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(24);
    });

    it('hides a listing reported by three different students, until a moderator looks', async () => {
      const seller = await createUser(t);
      const listing = await createListingAs(t, seller);
      const students = await Promise.all([1, 2, 3].map(() => createUser(t)));
      await report(listing._id, students[0]!);
      await report(listing._id, students[0]!); // the same student twice counts once
      await report(listing._id, students[1]!);
      expect(await searchIds()).toContain(listing._id);
      await report(listing._id, students[2]!, { reason: 'not_a_textbook' });
      expect(await status(listing._id)).toBe('hidden');
      expect(await searchIds()).not.toContain(listing._id);
      // Its page: a 404 for visitors, shown to its seller and the moderators.
      expect((await get(`/api/listing/get/${listing._id}`)).statusCode).toBe(404);
      expect((await get(`/api/listing/get/${listing._id}`, seller.cookie)).statusCode).toBe(200);
      expect((await get(`/api/listing/get/${listing._id}`, moderator.cookie)).statusCode).toBe(200);
      // Nor does a shared link's preview (Open Graph tags) show it.
      expect(await findListingPageHead(t.app, listing._id)).toBeUndefined();
      // The seller cannot undo it by selling and relisting.
      const relist = await post(`/api/listing/mark-as-sold/${listing._id}`, seller.cookie);
      expect(relist.statusCode).toBe(409);

      const queue = (await get('/api/moderation/queue', moderator.cookie)).json() as {
        listing: { _id: string };
        reports: { reason: string }[];
      }[];
      const item = queue.find((q) => q.listing._id === listing._id);
      expect(item?.reports.map((r) => r.reason).sort()).toEqual([
        'not_a_textbook',
        'spam_or_scam',
        'spam_or_scam',
      ]);

      // Dismissed: back in search, out of the queue, logged.
      expect(
        (await post(`/api/moderation/listings/${listing._id}/dismiss`, moderator.cookie))
          .statusCode,
      ).toBe(200);
      expect(await status(listing._id)).toBe('active');
      expect(await searchIds()).toContain(listing._id);
      const again = await post(`/api/moderation/listings/${listing._id}/dismiss`, moderator.cookie);
      expect(again.statusCode).toBe(409);
    });

    it('hides at once when 25 different students report together (threshold counted atomically)', async () => {
      const seller = await createUser(t);
      const listing = await createListingAs(t, seller);
      const students = await Promise.all(Array.from({ length: 25 }, () => createUser(t)));
      const answers = await Promise.all(students.map((s) => report(listing._id, s)));
      expect(answers.every((a) => a.statusCode === 201)).toBe(true);
      expect(await status(listing._id)).toBe('hidden');
    });

    it('refuses bad input, one’s own listing, unverified and signed-out students', async () => {
      const seller = await createUser(t);
      const listing = await createListingAs(t, seller);
      const student = await createUser(t);
      for (const body of [
        {},
        { reason: 'boring' },
        { reason: 'other', note: 'x'.repeat(1001) },
        { reason: 'other', note: 42 },
        { reason: ['other'] },
      ]) {
        const res = await report(listing._id, student, body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      }
      expect(
        (await report(listing._id, student, { reason: 'other', note: 'x'.repeat(1000) }))
          .statusCode,
      ).toBe(201);
      expect((await report(listing._id, seller)).statusCode).toBe(403);
      expect((await report('not-a-uuid', student)).statusCode).toBe(404);
      expect((await report('00000000-0000-4000-8000-000000000000', student)).statusCode).toBe(404);
      const unverified = await createUser(t, { verified: false });
      expect((await report(listing._id, unverified)).statusCode).toBe(403);
      expect(
        (await post(`/api/reports/${listing._id}`, undefined, { reason: 'other' })).statusCode,
      ).toBe(401);
    });
  });

  describe('moderator routes', () => {
    const routes = (listingId: string, userId: string) => [
      { method: 'GET', url: '/api/moderation/queue' },
      { method: 'GET', url: '/api/moderation/log' },
      { method: 'POST', url: `/api/moderation/listings/${listingId}/dismiss` },
      {
        method: 'POST',
        url: `/api/moderation/listings/${listingId}/remove`,
        payload: { reason: 'Spam' },
      },
      {
        method: 'POST',
        url: `/api/moderation/users/${userId}/suspend`,
        payload: { reason: 'Spam' },
      },
      { method: 'POST', url: `/api/moderation/users/${userId}/unsuspend` },
    ];

    it('answer 401 signed out and 403 to every non-moderator, changing nothing', async () => {
      const seller = await createUser(t);
      const listing = await createListingAs(t, seller);
      await report(listing._id, await createUser(t));
      const callers = {
        student: (await createUser(t)).cookie,
        seller: seller.cookie,
        unverifiedModerator: (await createUser(t, { email: UNVERIFIED_MODERATOR, verified: false }))
          .cookie,
      };
      for (const route of routes(listing._id, seller.id)) {
        const anonymous = await t.app.inject({ ...route, method: route.method as 'GET' });
        expect(anonymous.statusCode, route.url).toBe(401);
        for (const [who, cookie] of Object.entries(callers)) {
          const res = await t.app.inject({
            ...route,
            method: route.method as 'GET',
            headers: { cookie },
          });
          expect(res.statusCode, `${who} ${route.method} ${route.url}`).toBe(403);
        }
      }
      expect(await status(listing._id)).toBe('active');
      expect(
        await t.database.db
          .select()
          .from(moderationLog)
          .where(eq(moderationLog.listingId, listing._id)),
      ).toHaveLength(0);
    });

    it('tells the web app who is a moderator (the header links the moderation page)', async () => {
      const mine = (await get('/api/auth/session', moderator.cookie)).json() as {
        user: { isModerator?: boolean };
      };
      expect(mine.user.isModerator).toBe(true);
      const student = await createUser(t);
      const theirs = (await get('/api/auth/session', student.cookie)).json() as {
        user: { isModerator?: boolean };
      };
      expect(theirs.user.isModerator).toBeUndefined();
    });

    it('refuse bad input with a 4xx', async () => {
      const seller = await createUser(t);
      const listing = await createListingAs(t, seller);
      const bad = [
        [`/api/moderation/listings/${listing._id}/remove`, {}],
        [`/api/moderation/listings/${listing._id}/remove`, { reason: '   ' }],
        [`/api/moderation/listings/${listing._id}/remove`, { reason: 'x'.repeat(1001) }],
        [`/api/moderation/users/${seller.id}/suspend`, { reason: 7 }],
      ] as const;
      for (const [url, body] of bad) {
        expect((await post(url, moderator.cookie, body)).statusCode, url).toBe(400);
      }
      expect(
        (await post('/api/moderation/listings/nope/remove', moderator.cookie, { reason: 'Spam' }))
          .statusCode,
      ).toBe(404);
      expect(
        (
          await post(
            '/api/moderation/users/00000000-0000-4000-8000-000000000000/suspend',
            moderator.cookie,
            { reason: 'Spam' },
          )
        ).statusCode,
      ).toBe(404);
      expect(
        (
          await post(`/api/moderation/users/${moderator.id}/suspend`, moderator.cookie, {
            reason: 'Me',
          })
        ).statusCode,
      ).toBe(400);
      expect(await status(listing._id)).toBe('active');
    });

    it('remove takes the listing down and mails the seller why', async () => {
      const seller = await createUser(t);
      const listing = await createListingAs(t, seller);
      const res = await post(`/api/moderation/listings/${listing._id}/remove`, moderator.cookie, {
        reason: 'This is a photocopy, which the campus rules forbid.',
      });
      expect(res.statusCode).toBe(200);
      expect(await status(listing._id)).toBe('removed');
      expect(await searchIds()).not.toContain(listing._id);
      expect((await get(`/api/listing/get/${listing._id}`)).statusCode).toBe(404);
      const mail = (await mailsTo(t, seller.email)).at(-1);
      expect(mail?.subject).toContain('was removed');
      expect(mail?.text).toContain('This is a photocopy, which the campus rules forbid.');
      // The seller cannot bring it back.
      expect((await post(`/api/listing/relist/${listing._id}`, seller.cookie)).statusCode).toBe(
        409,
      );
      expect(
        (
          await post(`/api/moderation/listings/${listing._id}/remove`, moderator.cookie, {
            reason: 'Again',
          })
        ).statusCode,
      ).toBe(409);
    });

    it('dismissing reports of an unknown listing is a 404, as the docs say (issue 26)', async () => {
      const unknown = '0b8e5a62-3c1f-4d8e-9a57-1f2e3d4c5b6a';
      const res = await post(`/api/moderation/listings/${unknown}/dismiss`, moderator.cookie);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, message: 'Listing not found' });
      // A listing that exists but has no open reports is still a 409.
      const listing = await createListingAs(t, await createUser(t));
      const none = await post(`/api/moderation/listings/${listing._id}/dismiss`, moderator.cookie);
      expect(none.statusCode).toBe(409);
    });

    it('restore puts a listing removed by mistake back on sale, logged (issue 26)', async () => {
      const seller = await createUser(t);
      const listing = await createListingAs(t, seller);
      await post(`/api/moderation/listings/${listing._id}/remove`, moderator.cookie, {
        reason: 'By mistake',
      });
      expect(await status(listing._id)).toBe('removed');
      const student = await createUser(t);
      expect(
        (await post(`/api/moderation/listings/${listing._id}/restore`, student.cookie)).statusCode,
      ).toBe(403);
      const res = await post(`/api/moderation/listings/${listing._id}/restore`, moderator.cookie);
      expect(res.statusCode).toBe(200);
      expect(await status(listing._id)).toBe('active');
      expect(await searchIds()).toContain(listing._id);
      expect((await get(`/api/listing/get/${listing._id}`)).statusCode).toBe(200);
      const log = (await get('/api/moderation/log', moderator.cookie)).json() as {
        action: string;
        listingId: string | null;
      }[];
      expect(log.filter((l) => l.listingId === listing._id).map((l) => l.action)).toEqual([
        'restore',
        'remove',
      ]);
      // Not removed any more: 409; unknown or not an id: 404.
      const again = await post(`/api/moderation/listings/${listing._id}/restore`, moderator.cookie);
      expect(again.statusCode).toBe(409);
      const unknown = '0b8e5a62-3c1f-4d8e-9a57-1f2e3d4c5b6a';
      for (const id of [unknown, 'nope']) {
        const res404 = await post(`/api/moderation/listings/${id}/restore`, moderator.cookie);
        expect(res404.statusCode).toBe(404);
      }
    });

    it('suspend signs the seller out, refuses sign-in and listing, hides their listings; unsuspend restores', async () => {
      const seller = await createUser(t);
      const active = await createListingAs(t, seller);
      const sold = await createListingAs(t, seller, { name: 'Sold Already' });
      await post(`/api/listing/mark-as-sold/${sold._id}`, seller.cookie);
      const res = await post(`/api/moderation/users/${seller.id}/suspend`, moderator.cookie, {
        reason: 'Scam reports from several students',
      });
      expect(res.statusCode).toBe(200);
      expect(
        await t.database.db.select().from(sessions).where(eq(sessions.userId, seller.id)),
      ).toHaveLength(0);
      expect((await get('/api/auth/me', seller.cookie)).statusCode).toBe(401);
      const signIn = await post('/api/auth/signin', undefined, {
        email: seller.email,
        password: seller.password,
      });
      expect(signIn.statusCode).toBe(403);
      expect(signIn.json()).toMatchObject({ message: ACCOUNT_SUSPENDED });
      expect((await post('/api/listing/create', seller.cookie, {})).statusCode).toBe(401);
      expect(await status(active._id)).toBe('hidden');
      expect(await status(sold._id)).toBe('sold');
      expect(await searchIds()).not.toContain(active._id);
      expect((await get(`/api/listing/get/${active._id}`)).statusCode).toBe(404);
      expect(
        (
          await post(`/api/moderation/users/${seller.id}/suspend`, moderator.cookie, {
            reason: 'x',
          })
        ).statusCode,
      ).toBe(409);

      expect(
        (await post(`/api/moderation/users/${seller.id}/unsuspend`, moderator.cookie)).statusCode,
      ).toBe(200);
      expect(await status(active._id)).toBe('active');
      expect(await status(sold._id)).toBe('sold');
      expect(await searchIds()).toContain(active._id);
      const back = await post('/api/auth/signin', undefined, {
        email: seller.email,
        password: seller.password,
      });
      expect(back.statusCode).toBe(200);
    });

    it('writes every action to an audit log moderators read and nobody can change', async () => {
      const log = (await get('/api/moderation/log', moderator.cookie)).json() as {
        action: string;
        moderatorEmail: string;
      }[];
      expect(log.map((e) => e.action)).toEqual(
        expect.arrayContaining(['dismiss', 'remove', 'suspend', 'unsuspend']),
      );
      expect(log.every((e) => e.moderatorEmail === MODERATOR)).toBe(true);
      const count = log.length;
      await expect(
        t.database.db.execute(sql`UPDATE moderation_log SET reason = 'edited'`),
      ).rejects.toThrow();
      await expect(t.database.db.execute(sql`DELETE FROM moderation_log`)).rejects.toThrow();
      expect(await t.database.db.select().from(moderationLog)).toHaveLength(count);
    });
  });
});
