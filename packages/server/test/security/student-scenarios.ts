import { DEFAULT_NOTIFICATION_SETTINGS } from '@campus-books/common/notification.schemas';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { alerts } from '../../src/db/alerts.schema';
import { notificationSettings } from '../../src/db/notifications.schema';
import { users } from '../../src/db/schema';
import { savedListings } from '../../src/db/saved.schema';
import { signUnsubscribeToken } from '../../src/features/alerts/unsubscribe-token';
import { createUser, type TestUser } from '../helpers';
import { mailsTo } from '../outbox';
import {
  bare,
  copyAnswer,
  COPIES,
  json,
  setUp,
  statuses,
  successes,
  type Scenario,
} from './duplicate-scenario';
import type { AttackWorld } from './route-fixtures';

async function createAlertAs(w: AttackWorld, user: TestUser): Promise<string> {
  const alert = await setUp(w, 'POST /api/alerts/create', {
    as: user,
    body: { courseNumber: '101' },
  });
  return alert._id;
}

/**
 * 25 copies at once of each route of a student's own things: alerts, saved listings, the mail
 * settings and the data export.
 */
/** One student's notification choices saved 25 times at once: one row, the choices as sent. */
const notificationChoices = (url: string): Scenario => ({
  async prepare(w) {
    const user = await createUser(w.t);
    const body = {
      ...DEFAULT_NOTIFICATION_SETTINGS,
      kinds: { ...DEFAULT_NOTIFICATION_SETTINGS.kinds, ratings: { mail: false, push: true } },
      quietHours: { start: '22:00', end: '07:00' },
    };
    return {
      request: json('PUT', url, body, user),
      check: async (answers) => {
        expect(successes(answers), statuses(answers).join()).toBe(COPIES);
        const rows = await w.t.database.db
          .select()
          .from(notificationSettings)
          .where(eq(notificationSettings.userId, user.id));
        expect(rows).toHaveLength(1);
        expect(rows[0]!.choices.ratings?.mail).toBe(false);
        expect([rows[0]!.quietStart, rows[0]!.quietEnd]).toEqual(['22:00', '07:00']);
      },
    };
  },
});

export const STUDENT_SCENARIOS: Record<string, Scenario> = {
  'POST /api/alerts/create': {
    async prepare(w) {
      const user = await createUser(w.t);
      return {
        request: json('POST', '/api/alerts/create', { courseNumber: '101' }, user),
        check: async (answers) => {
          // Issue 26 item 5: identical creates make one alert; every copy answers it (one 201, the
          // others 200 with the same alert). The limit under a burst is in alerts.rules.test.ts.
          expect(statuses(answers).sort(), statuses(answers).join()).toEqual([
            ...Array<number>(COPIES - 1).fill(200),
            201,
          ]);
          const rows = await w.t.database.db
            .select()
            .from(alerts)
            .where(eq(alerts.userId, user.id));
          expect(rows).toHaveLength(1);
          const ids = answers.map((a) => copyAnswer('POST /api/alerts/create', a)._id);
          expect(new Set(ids)).toEqual(new Set([rows[0]!.id]));
        },
      };
    },
  },
  'POST /api/alerts/update/:id': {
    async prepare(w) {
      const user = await createUser(w.t);
      const alert = await createAlertAs(w, user);
      return {
        request: json(
          'POST',
          `/api/alerts/update/${alert}`,
          { courseNumber: '102', paused: true },
          user,
        ),
        check: async (answers) => {
          expect(successes(answers)).toBe(COPIES);
          const [row] = await w.t.database.db.select().from(alerts).where(eq(alerts.id, alert));
          expect(row).toMatchObject({ courseNumber: '102', paused: true });
        },
      };
    },
  },
  'DELETE /api/alerts/delete/:id': {
    async prepare(w) {
      const user = await createUser(w.t);
      const alert = await createAlertAs(w, user);
      return {
        request: bare('DELETE', `/api/alerts/delete/${alert}`, user),
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(1);
          expect(await w.t.database.db.select().from(alerts).where(eq(alerts.id, alert))).toEqual(
            [],
          );
        },
      };
    },
  },
  'POST /api/alerts/unsubscribe': {
    async prepare(w) {
      const user = await createUser(w.t);
      const alert = await createAlertAs(w, user);
      const token = signUnsubscribeToken(w.t.config.sessionSecret, user.id, [alert], new Date());
      return {
        request: {
          method: 'POST',
          url: `/api/alerts/unsubscribe?token=${token}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'List-Unsubscribe=One-Click',
        },
        check: async (answers) => {
          expect(successes(answers)).toBe(COPIES);
          expect(await w.t.database.db.select().from(alerts).where(eq(alerts.id, alert))).toEqual(
            [],
          );
        },
      };
    },
  },
  'POST /api/saved/add/:id': {
    async prepare(w) {
      const user = await createUser(w.t);
      return {
        request: bare('POST', `/api/saved/add/${w.listingId}`, user),
        check: async (answers) => {
          expect(successes(answers)).toBe(COPIES);
          const rows = await w.t.database.db
            .select()
            .from(savedListings)
            .where(eq(savedListings.userId, user.id));
          expect(rows).toHaveLength(1);
        },
      };
    },
  },
  'POST /api/saved/mails': {
    async prepare(w) {
      const user = await createUser(w.t);
      return {
        request: json('POST', '/api/saved/mails', { savedListingMails: false }, user),
        check: async (answers) => {
          expect(successes(answers)).toBe(COPIES);
          const [row] = await w.t.database.db.select().from(users).where(eq(users.id, user.id));
          expect(row?.savedListingMails).toBe(false);
        },
      };
    },
  },
  'POST /api/data-export': {
    async prepare(w) {
      const user = await createUser(w.t);
      return {
        request: bare('POST', '/api/data-export', user),
        check: async (answers) => {
          expect(successes(answers)).toBe(COPIES);
          // One copy prepared, one mail, however many asked at once.
          await w.t.app.jobs.runDue();
          const ready = (await mailsTo(w.t, user.email)).filter((m) =>
            /data is ready/.test(m.subject),
          );
          expect(ready).toHaveLength(1);
        },
      };
    },
  },
  'DELETE /api/saved/remove/:id': {
    async prepare(w) {
      const user = await createUser(w.t);
      await w.t.app.inject(bare('POST', `/api/saved/add/${w.listingId}`, user));
      return {
        request: bare('DELETE', `/api/saved/remove/${w.listingId}`, user),
        check: async (answers) => {
          expect(successes(answers)).toBe(COPIES);
          const rows = await w.t.database.db
            .select()
            .from(savedListings)
            .where(eq(savedListings.userId, user.id));
          expect(rows).toEqual([]);
        },
      };
    },
  },
  'POST /api/conversations/mails': {
    async prepare(w) {
      const user = await createUser(w.t);
      return {
        request: json('POST', '/api/conversations/mails', { messageMails: false }, user),
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(COPIES);
          const [row] = await w.t.database.db.select().from(users).where(eq(users.id, user.id));
          expect(row?.messageMails).toBe(false);
        },
      };
    },
  },
  'POST /api/conversations/receipts': {
    async prepare(w) {
      const user = await createUser(w.t);
      return {
        request: json('POST', '/api/conversations/receipts', { readReceipts: false }, user),
        check: async (answers) => {
          expect(successes(answers), statuses(answers).join()).toBe(COPIES);
          const [row] = await w.t.database.db.select().from(users).where(eq(users.id, user.id));
          expect(row?.readReceipts).toBe(false);
        },
      };
    },
  },
  'PUT /api/notifications': notificationChoices('/api/notifications'),
  'PUT /api/notifications/': notificationChoices('/api/notifications/'),
};
