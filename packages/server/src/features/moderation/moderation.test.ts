import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf } from '@campus-books/common/call-route';
import type { ReportInput } from '@campus-books/common/moderation.schemas';
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
import { apiCaller, routeCaller } from '../../../test/api-caller';
import { createListingAs } from '../../../test/listing-fixtures';
import { mailsTo } from '../../../test/outbox';
import { findListingPageHead } from '../listings/listing-page-meta';
import { ACCOUNT_SUSPENDED } from './moderation.messages';

const MODERATOR = `moderator.${Date.now()}@example.edu`;
const UNVERIFIED_MODERATOR = `unverified.moderator.${Date.now()}@example.edu`;
const SPAM: ReportInput = { reason: 'spam_or_scam' };

describe(`reports, moderators, suspension and the audit log (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let moderator: TestUser;
  const route = routeCaller(() => t);
  // Raw requests only for bodies no typed call can send (a wrong reason, a note of the wrong type).
  const call = apiCaller(() => t);
  const report = (listingId: string, user: TestUser | null, body: ReportInput = SPAM) =>
    route('POST /api/reports/:listingId', { as: user, params: { listingId }, body });
  const searchIds = async () =>
    dataOf(await route('GET /api/listing/get', { query: { limit: 50 } })).map((l) => l._id);
  const listingAs = (id: string, user?: TestUser) =>
    route('GET /api/listing/get/:id', { as: user, params: { id } });
  const moderate = (
    verb: 'dismiss' | 'restore',
    listingId: string,
    user: TestUser | null = moderator,
  ) =>
    route(`POST /api/moderation/listings/:listingId/${verb}`, { as: user, params: { listingId } });
  const remove = (listingId: string, reason: string) =>
    route('POST /api/moderation/listings/:listingId/remove', {
      as: moderator,
      params: { listingId },
      body: { reason },
    });
  const suspend = (userId: string, reason: string) =>
    route('POST /api/moderation/users/:userId/suspend', {
      as: moderator,
      params: { userId },
      body: { reason },
    });
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
      expect(first.status).toBe(201);
      const again = await report(listing._id, student, { reason: 'offensive' });
      expect(again.status).toBe(409);
      expect(errorOf(again)).toMatchObject({
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
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(24);
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
      expect((await listingAs(listing._id)).status).toBe(404);
      expect((await listingAs(listing._id, seller)).status).toBe(200);
      expect((await listingAs(listing._id, moderator)).status).toBe(200);
      // Nor does a shared link's preview (Open Graph tags) show it.
      expect(await findListingPageHead(t.app, listing._id)).toBeUndefined();
      // The seller cannot undo it by selling and relisting.
      const relist = await route('POST /api/listing/mark-as-sold/:id', {
        as: seller,
        params: { id: listing._id },
      });
      expect(relist.status).toBe(409);

      const queue = dataOf(await route('GET /api/moderation/queue', { as: moderator }));
      const item = queue.find((q) => q.listing._id === listing._id);
      expect(item?.reports.map((r) => r.reason).sort()).toEqual([
        'not_a_textbook',
        'spam_or_scam',
        'spam_or_scam',
      ]);

      // Dismissed: back in search, out of the queue, logged.
      expect((await moderate('dismiss', listing._id)).status).toBe(200);
      expect(await status(listing._id)).toBe('active');
      expect(await searchIds()).toContain(listing._id);
      expect((await moderate('dismiss', listing._id)).status).toBe(409);
    });

    it('hides at once when 25 different students report together (threshold counted atomically)', async () => {
      const seller = await createUser(t);
      const listing = await createListingAs(t, seller);
      const students = await Promise.all(Array.from({ length: 25 }, () => createUser(t)));
      const answers = await Promise.all(students.map((s) => report(listing._id, s)));
      expect(answers.every((a) => a.status === 201)).toBe(true);
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
        const res = await call(student, 'POST', `/api/reports/${listing._id}`, body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      }
      expect(
        (await report(listing._id, student, { reason: 'other', note: 'x'.repeat(1000) })).status,
      ).toBe(201);
      expect((await report(listing._id, seller)).status).toBe(403);
      expect((await report('not-a-uuid', student)).status).toBe(404);
      expect((await report('00000000-0000-4000-8000-000000000000', student)).status).toBe(404);
      const unverified = await createUser(t, { verified: false });
      expect((await report(listing._id, unverified)).status).toBe(403);
      expect((await report(listing._id, null, { reason: 'other' })).status).toBe(401);
    });
  });

  describe('moderator routes', () => {
    const body = { reason: 'Spam' };
    const routes = (listingId: string, userId: string) =>
      [
        ['GET queue', (as) => route('GET /api/moderation/queue', { as })],
        ['GET log', (as) => route('GET /api/moderation/log', { as })],
        ['dismiss', (as) => moderate('dismiss', listingId, as)],
        [
          'remove',
          (as) =>
            route('POST /api/moderation/listings/:listingId/remove', {
              as,
              params: { listingId },
              body,
            }),
        ],
        [
          'suspend',
          (as) =>
            route('POST /api/moderation/users/:userId/suspend', { as, params: { userId }, body }),
        ],
        [
          'unsuspend',
          (as) => route('POST /api/moderation/users/:userId/unsuspend', { as, params: { userId } }),
        ],
      ] satisfies [string, (as: TestUser | null) => Promise<{ status: number }>][];

    it('answer 401 signed out and 403 to every non-moderator, changing nothing', async () => {
      const seller = await createUser(t);
      const listing = await createListingAs(t, seller);
      await report(listing._id, await createUser(t));
      const callers = {
        student: await createUser(t),
        seller,
        unverifiedModerator: await createUser(t, { email: UNVERIFIED_MODERATOR, verified: false }),
      };
      for (const [name, ask] of routes(listing._id, seller.id)) {
        expect((await ask(null)).status, name).toBe(401);
        for (const [who, user] of Object.entries(callers)) {
          expect((await ask(user)).status, `${who} ${name}`).toBe(403);
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
      const mine = dataOf(await route('GET /api/auth/session', { as: moderator }));
      expect(mine.user?.isModerator).toBe(true);
      const student = await createUser(t);
      const theirs = dataOf(await route('GET /api/auth/session', { as: student }));
      expect(theirs.user).not.toBeNull();
      expect(theirs.user?.isModerator).toBeUndefined();
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
      // Raw requests: bodies no typed call can send (no reason, a number for one).
      for (const [url, body] of bad) {
        expect((await call(moderator, 'POST', url, body)).statusCode, url).toBe(400);
      }
      expect((await remove('nope', 'Spam')).status).toBe(404);
      expect((await suspend('00000000-0000-4000-8000-000000000000', 'Spam')).status).toBe(404);
      expect((await suspend(moderator.id, 'Me')).status).toBe(400);
      expect(await status(listing._id)).toBe('active');
    });

    it('remove takes the listing down and mails the seller why', async () => {
      const seller = await createUser(t);
      const listing = await createListingAs(t, seller);
      const res = await remove(listing._id, 'This is a photocopy, which the campus rules forbid.');
      expect(res.status).toBe(200);
      expect(await status(listing._id)).toBe('removed');
      expect(await searchIds()).not.toContain(listing._id);
      expect((await listingAs(listing._id)).status).toBe(404);
      const mail = (await mailsTo(t, seller.email)).at(-1);
      expect(mail?.subject).toContain('was removed');
      expect(mail?.text).toContain('This is a photocopy, which the campus rules forbid.');
      // The seller cannot bring it back.
      const relist = await route('POST /api/listing/relist/:id', {
        as: seller,
        params: { id: listing._id },
      });
      expect(relist.status).toBe(409);
      expect((await remove(listing._id, 'Again')).status).toBe(409);
    });

    it('dismissing reports of an unknown listing is a 404, as the docs say (issue 26)', async () => {
      const unknown = '0b8e5a62-3c1f-4d8e-9a57-1f2e3d4c5b6a';
      const res = await moderate('dismiss', unknown);
      expect(res.status).toBe(404);
      expect(errorOf(res)).toMatchObject({ success: false, message: 'Listing not found' });
      // A listing that exists but has no open reports is still a 409.
      const listing = await createListingAs(t, await createUser(t));
      expect((await moderate('dismiss', listing._id)).status).toBe(409);
    });

    it('restore puts a listing removed by mistake back on sale, logged (issue 26)', async () => {
      const seller = await createUser(t);
      const listing = await createListingAs(t, seller);
      await remove(listing._id, 'By mistake');
      expect(await status(listing._id)).toBe('removed');
      const student = await createUser(t);
      expect((await moderate('restore', listing._id, student)).status).toBe(403);
      const res = await moderate('restore', listing._id);
      expect(res.status).toBe(200);
      expect(await status(listing._id)).toBe('active');
      expect(await searchIds()).toContain(listing._id);
      expect((await listingAs(listing._id)).status).toBe(200);
      const log = dataOf(await route('GET /api/moderation/log', { as: moderator }));
      expect(log.filter((l) => l.listingId === listing._id).map((l) => l.action)).toEqual([
        'restore',
        'remove',
      ]);
      // Not removed any more: 409; unknown or not an id: 404.
      expect((await moderate('restore', listing._id)).status).toBe(409);
      const unknown = '0b8e5a62-3c1f-4d8e-9a57-1f2e3d4c5b6a';
      for (const id of [unknown, 'nope']) {
        expect((await moderate('restore', id)).status).toBe(404);
      }
    });

    it('suspend signs the seller out, refuses sign-in and listing, hides their listings; unsuspend restores', async () => {
      const seller = await createUser(t);
      const active = await createListingAs(t, seller);
      const sold = await createListingAs(t, seller, { name: 'Sold Already' });
      await route('POST /api/listing/mark-as-sold/:id', { as: seller, params: { id: sold._id } });
      const res = await suspend(seller.id, 'Scam reports from several students');
      expect(res.status).toBe(200);
      expect(
        await t.database.db.select().from(sessions).where(eq(sessions.userId, seller.id)),
      ).toHaveLength(0);
      expect((await route('GET /api/auth/me', { as: seller })).status).toBe(401);
      const signIn = await route('POST /api/auth/signin', {
        body: { email: seller.email, password: seller.password },
      });
      expect(signIn.status).toBe(403);
      expect(errorOf(signIn)).toMatchObject({ message: ACCOUNT_SUSPENDED });
      // Raw: an empty body, which the typed call of listing/create cannot send.
      expect((await call(seller, 'POST', '/api/listing/create', {})).statusCode).toBe(401);
      expect(await status(active._id)).toBe('hidden');
      expect(await status(sold._id)).toBe('sold');
      expect(await searchIds()).not.toContain(active._id);
      expect((await listingAs(active._id)).status).toBe(404);
      expect((await suspend(seller.id, 'x')).status).toBe(409);

      const unsuspend = await route('POST /api/moderation/users/:userId/unsuspend', {
        as: moderator,
        params: { userId: seller.id },
      });
      expect(unsuspend.status).toBe(200);
      expect(await status(active._id)).toBe('active');
      expect(await status(sold._id)).toBe('sold');
      expect(await searchIds()).toContain(active._id);
      const back = await route('POST /api/auth/signin', {
        body: { email: seller.email, password: seller.password },
      });
      expect(back.status).toBe(200);
    });

    it('writes every action to an audit log moderators read and nobody can change', async () => {
      const log = dataOf(await route('GET /api/moderation/log', { as: moderator }));
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
