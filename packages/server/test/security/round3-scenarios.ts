import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { activeCampus } from '@campus-books/common/active-campus';
import { pushSubscriptions } from '../../src/db/push.schema';
import { meetups, ratingReports, ratings } from '../../src/db/ratings.schema';
import { userCourses } from '../../src/db/courses.schema';
import { moderationLog } from '../../src/db/moderation.schema';
import { sessions } from '../../src/db/schema';
import { listingDrafts, termEndMailSubscribers } from '../../src/db/shelf.schema';
import { createUser, type TestUser } from '../helpers';
import { createListingAs } from '../listing-fixtures';
import { codes, copyAnswer, COPIES, setUp, type Scenario } from './duplicate-scenario';
import { moderatorOf, type AttackWorld } from './route-fixtures';

/**
 * 25 copies at once of each state-changing route of round 3 (meetups, ratings, drafts, my courses,
 * the end-of-term mail, push): concurrent-duplicates.test.ts runs them with the others.
 */
const HOUR = 60 * 60_000;
const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, user: TestUser, payload?: unknown) =>
  ({
    method,
    url,
    headers: { cookie: user.cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  }) satisfies InjectOptions;

async function expectOk(w: AttackWorld, request: InjectOptions) {
  const res = await w.t.app.inject(request);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res;
}

/** A seller's listing and a buyer's conversation about it. */
async function conversationOf(w: AttackWorld) {
  const seller = await createUser(w.t);
  const buyer = await createUser(w.t);
  const listingId = (await createListingAs(w.t, seller))._id;
  const { conversationId } = await setUp(w, 'POST /api/conversations', {
    as: buyer,
    body: { listingId, text: 'Can we meet?' },
  });
  return { seller, buyer, listingId, conversationId };
}

/** A meetup the buyer suggested, five hours from now. */
async function suggestedMeetup(w: AttackWorld) {
  const c = await conversationOf(w);
  const { meetup } = await setUp(w, 'POST /api/meetups', {
    as: c.buyer,
    body: {
      conversationId: c.conversationId,
      spotId: activeCampus().meetupSpots[0]!.id,
      startsAt: new Date(Date.now() + 5 * HOUR).toISOString(),
    },
  });
  return { ...c, meetup };
}

/** A sale to the buyer, rated by both (so revealed): the buyer's rating of the seller. */
async function revealedRating(w: AttackWorld) {
  const c = await conversationOf(w);
  await expectOk(
    w,
    call('POST', `/api/conversations/listing/${c.listingId}/sold`, c.seller, {
      buyerId: c.buyer.id,
    }),
  );
  const list = await setUp(w, 'GET /api/ratings/exchanges', { as: c.buyer });
  const exchange = list.exchanges.find((e) => e.listing.id === c.listingId)!;
  const given = await setUp(w, 'POST /api/ratings/exchanges/:id', {
    as: c.buyer,
    params: { id: exchange.id },
    body: { positive: false, comment: 'Rude' },
  });
  await expectOk(
    w,
    call('POST', `/api/ratings/exchanges/${exchange.id}`, c.seller, { positive: true }),
  );
  return { ...c, ratingId: given.exchange.mine!.id };
}

async function ratingLogLines(w: AttackWorld, ratingId: string, action: string) {
  const rows = await w.t.database.db
    .select()
    .from(moderationLog)
    .where(eq(moderationLog.ratingId, ratingId));
  return rows.filter((r) => r.action === action);
}

function meetupSuggestion(path: string): Scenario {
  return {
    async prepare(w) {
      const c = await conversationOf(w);
      return {
        request: call('POST', path, c.buyer, {
          conversationId: c.conversationId,
          spotId: activeCampus().meetupSpots[0]!.id,
          startsAt: new Date(Date.now() + 5 * HOUR).toISOString(),
        }),
        // Each copy replaces the suggestion before it: one stays proposed.
        check: async (answers) => {
          expect(codes(answers)).toEqual(Array(COPIES).fill(201));
          const rows = await w.t.database.db
            .select()
            .from(meetups)
            .where(eq(meetups.conversationId, c.conversationId));
          expect(rows.filter((m) => m.status === 'proposed')).toHaveLength(1);
        },
      };
    },
  };
}

function termEndMail(path: string): Scenario {
  return {
    async prepare(w) {
      const user = await createUser(w.t);
      return {
        request: call('PUT', path, user, { subscribed: true }),
        check: async (answers) => {
          expect(codes(answers)).toEqual(Array(COPIES).fill(200));
          const rows = await w.t.database.db
            .select()
            .from(termEndMailSubscribers)
            .where(eq(termEndMailSubscribers.userId, user.id));
          expect(rows).toHaveLength(1);
        },
      };
    },
  };
}

export const ROUND3_SCENARIOS: Record<string, Scenario> = {
  'POST /api/meetups': meetupSuggestion('/api/meetups'),
  'POST /api/meetups/': meetupSuggestion('/api/meetups/'),
  'POST /api/meetups/:id/decline': {
    async prepare(w) {
      const c = await suggestedMeetup(w);
      return {
        request: call('POST', `/api/meetups/${c.meetup.id}/decline`, c.seller),
        // One copy declines; the others find it answered already.
        check: async (answers) => {
          expect(
            answers.filter((a) => a.statusCode === 200),
            codes(answers).join(),
          ).toHaveLength(1);
          expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 409)).toBe(true);
          const [row] = await w.t.database.db
            .select()
            .from(meetups)
            .where(eq(meetups.id, c.meetup.id));
          expect(row!.status).toBe('declined');
        },
      };
    },
  },
  'DELETE /api/drafts/:id': {
    async prepare(w) {
      const user = await createUser(w.t);
      const id = randomUUID();
      await expectOk(w, call('PUT', `/api/drafts/${id}`, user, { fields: { name: 'Calculus' } }));
      return {
        request: call('DELETE', `/api/drafts/${id}`, user),
        check: async (answers) => {
          expect(answers.every((a) => a.statusCode < 500)).toBe(true);
          const rows = await w.t.database.db
            .select()
            .from(listingDrafts)
            .where(eq(listingDrafts.userId, user.id));
          expect(rows).toEqual([]);
        },
      };
    },
  },
  'PUT /api/term-end-mail': termEndMail('/api/term-end-mail'),
  'PUT /api/term-end-mail/': termEndMail('/api/term-end-mail/'),
  'POST /api/my-courses/remove': {
    async prepare(w) {
      const user = await createUser(w.t);
      await expectOk(w, call('POST', '/api/my-courses/add', user, { text: 'ECON 101, MATH 211' }));
      return {
        request: call('POST', '/api/my-courses/remove', user, { course: 'ECON 101' }),
        check: async (answers) => {
          expect(codes(answers)).toEqual(Array(COPIES).fill(200));
          const rows = await w.t.database.db
            .select()
            .from(userCourses)
            .where(eq(userCourses.userId, user.id));
          expect(rows.map((r) => `${r.subject} ${r.courseNumber}`)).toEqual(['MATH 211']);
        },
      };
    },
  },
  'POST /api/my-courses/calendar': {
    async prepare(w) {
      const user = await createUser(w.t);
      const calendar = [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Campus//Schedule//EN',
        'BEGIN:VEVENT',
        'UID:econ-101@example.edu',
        'DTSTAMP:20260801T000000Z',
        'DTSTART:20260901T140000Z',
        'SUMMARY:ECON 101 Principles of Economics',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n');
      return {
        request: call('POST', '/api/my-courses/calendar', user, { calendar }),
        // The file is read, not stored: every copy reads the same course and nothing is written.
        check: async (answers) => {
          expect(codes(answers)).toEqual(Array(COPIES).fill(200));
          const read = answers.map((a) =>
            JSON.stringify(copyAnswer('POST /api/my-courses/calendar', a).courses),
          );
          expect(new Set(read).size).toBe(1);
          expect(read[0]).toContain('101');
          const rows = await w.t.database.db
            .select()
            .from(userCourses)
            .where(eq(userCourses.userId, user.id));
          expect(rows).toEqual([]);
        },
      };
    },
  },
  'DELETE /api/push/subscriptions': {
    async prepare(w) {
      const user = await createUser(w.t);
      const endpoint = `https://push.example.org/send/${randomUUID()}`;
      const [session] = await w.t.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, user.id));
      await w.t.database.db.insert(pushSubscriptions).values({
        userId: user.id,
        sessionId: session!.id,
        endpoint,
        p256dh: 'B'.repeat(87),
        auth: 'A'.repeat(22),
      });
      return {
        request: call('DELETE', '/api/push/subscriptions', user, { endpoint }),
        check: async (answers) => {
          expect(codes(answers)).toEqual(Array(COPIES).fill(200));
          const rows = await w.t.database.db
            .select()
            .from(pushSubscriptions)
            .where(eq(pushSubscriptions.userId, user.id));
          expect(rows).toEqual([]);
        },
      };
    },
  },
  'POST /api/ratings/:id/report': {
    async prepare(w) {
      const r = await revealedRating(w);
      return {
        request: call('POST', `/api/ratings/${r.ratingId}/report`, r.seller, {
          reason: 'Insulting',
        }),
        // One report per reporter, however many copies.
        check: async (answers) => {
          expect(codes(answers)).toEqual(Array(COPIES).fill(200));
          const rows = await w.t.database.db
            .select()
            .from(ratingReports)
            .where(eq(ratingReports.ratingId, r.ratingId));
          expect(rows).toHaveLength(1);
        },
      };
    },
  },
  ...Object.fromEntries(
    (['remove', 'dismiss'] as const).map((verb) => [
      `POST /api/ratings/:id/${verb}`,
      {
        async prepare(w: AttackWorld) {
          const r = await revealedRating(w);
          await expectOk(
            w,
            call('POST', `/api/ratings/${r.ratingId}/report`, r.seller, { reason: 'Insulting' }),
          );
          const moderator = await moderatorOf(w);
          return {
            request: call('POST', `/api/ratings/${r.ratingId}/${verb}`, moderator, {
              reason: 'Insults',
            }),
            // One copy acts and writes one audit line; the others find it done (409).
            check: async (answers: LightMyRequestResponse[]) => {
              expect(
                answers.filter((a) => a.statusCode === 200),
                codes(answers).join(),
              ).toHaveLength(1);
              expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 409)).toBe(true);
              const action = verb === 'remove' ? 'remove_rating' : 'dismiss_rating';
              expect(await ratingLogLines(w, r.ratingId, action)).toHaveLength(1);
              const [row] = await w.t.database.db
                .select()
                .from(ratings)
                .where(and(eq(ratings.id, r.ratingId)));
              expect(Boolean(row?.removedAt)).toBe(verb === 'remove');
            },
          };
        },
      },
    ]),
  ),
};
