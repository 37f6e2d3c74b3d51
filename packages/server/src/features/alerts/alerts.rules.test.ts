import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_MESSAGES, MAX_ALERTS_PER_USER } from '@campus-books/common/alert.schemas';
import { listings } from '../../db/schema';
import { alertDeliveries, alerts } from '../../db/alerts.schema';
import { dataOf } from '@campus-books/common/call-route';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import { routeCaller } from '../../../test/api-caller';
import { insertListings } from '../../../test/listing-fixtures';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';

const ALERTS_DOC = readFileSync(
  new URL('../../../../../docs/api/alerts.md', import.meta.url),
  'utf8',
);

/** How many copies of one request arrive at once (as in test/security/concurrent-duplicates). */
const COPIES = 25;

describe(`alerts: the body's rules (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let student: TestUser;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
    student = await createUser(t);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, user = student) =>
    t.app.inject({ method: 'POST', url, headers: { cookie: user.cookie }, payload });

  // Issue 26 item 8: each message reads as docs/api/alerts.md shows it, the field named once.
  it.each([
    [
      { courseNumber: '101', maxPrice: -1 },
      'maxPrice: The maximum price must be between 0 and 10,000,000, in dollars and cents',
    ],
    [
      { courseNumber: '101', maxPrice: 1.001 },
      'maxPrice: The maximum price must be between 0 and 10,000,000, in dollars and cents',
    ],
    [{ isbn: '9781285741551' }, 'isbn: That is not a valid ISBN'],
    [{ subject: 'ZZZZ' }, 'subject: Choose a subject from the list (such as ECON or MATH)'],
    [{ major: 'Astrology' }, 'Choose a major from the list'],
    [{ courseNumber: '101', condition: 'shiny' }, 'condition: Choose one of the listed options'],
    [{ courseNumber: '101', school: 'Hogwarts' }, 'school: Choose one of the listed options'],
    [{ searchTerm: 'x'.repeat(101) }, 'Must be at most 100 characters'],
    [{ courseNumber: '1'.repeat(21) }, 'Must be at most 20 characters'],
    [{ condition: 'good' }, 'Choose what to look for: a title, an ISBN, a course or a major'],
    [{ searchTerm: '   ' }, 'Choose what to look for: a title, an ISBN, a course or a major'],
  ])('%j is a 400 with the documented message', async (body, message) => {
    for (const url of [
      '/api/alerts/create',
      '/api/alerts/update/00000000-0000-4000-8000-000000000000',
    ]) {
      const res = await post(url, body);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ success: false, statusCode: 400, message });
      expect(ALERTS_DOC).toContain(`\`${message}\``);
      // The field is named once: in `errors`, the message stands without it.
      for (const error of res.json().errors as { field: string; message: string }[]) {
        expect(error.message.startsWith(`${error.field}:`), error.message).toBe(false);
      }
    }
  });

  // Issue 26 item 5: an alert identical to one of the student's is answered, not made again.
  describe('duplicates', () => {
    const mine = async (user: TestUser) =>
      t.database.db.select().from(alerts).where(eq(alerts.userId, user.id));

    it('the same filters again, in any spelling, answer the existing alert with 200', async () => {
      const user = await createUser(t);
      const first = await post(
        '/api/alerts/create',
        {
          searchTerm: 'Principles of Economics',
          subject: 'econ',
          courseNumber: '101',
          isbn: '0-262-03384-4',
          maxPrice: 30,
        },
        user,
      );
      expect(first.statusCode, first.body).toBe(201);
      const again = [
        {
          searchTerm: 'Principles of Economics',
          subject: 'econ',
          courseNumber: '101',
          isbn: '0-262-03384-4',
          maxPrice: 30,
        },
        {
          searchTerm: 'economics  PRINCIPLES of',
          subject: 'ECON',
          courseNumber: ' 101 ',
          isbn: '9780262033848',
          maxPrice: 30.0,
          condition: 'con-all',
          digest: false,
        },
        {
          searchTerm: 'Princi\u200Bples of Eco\u200Dnomics',
          subject: 'Econ',
          courseNumber: '1\u200B01',
          isbn: '978-0-262-03384-8',
          maxPrice: 30,
          school: null,
          major: '',
        },
      ];
      for (const body of again) {
        const res = await post('/api/alerts/create', body, user);
        expect(res.statusCode, JSON.stringify(body)).toBe(200);
        expect(res.json()).toEqual(first.json());
      }
      expect(await mine(user)).toHaveLength(1);
    });

    it('the same filters with other settings are a 409, and nothing is made', async () => {
      const user = await createUser(t);
      expect((await post('/api/alerts/create', { courseNumber: '404' }, user)).statusCode).toBe(
        201,
      );
      for (const settings of [{ digest: true }, { paused: true }]) {
        const res = await post('/api/alerts/create', { courseNumber: '404', ...settings }, user);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({ success: false, message: ALERT_MESSAGES.exists });
      }
      expect(await mine(user)).toHaveLength(1);
    });

    it(`${COPIES} identical creates at once make one alert, and copies never use up the limit`, async () => {
      const user = await createUser(t);
      for (let i = 1; i < MAX_ALERTS_PER_USER; i += 1) {
        expect((await post('/api/alerts/create', { courseNumber: `9${i}` }, user)).statusCode).toBe(
          201,
        );
      }
      const answers = await Promise.all(
        Array.from({ length: COPIES }, () =>
          post('/api/alerts/create', { searchTerm: 'calculus' }, user),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([
        ...Array<number>(COPIES - 1).fill(200),
        201,
      ]);
      expect(new Set(answers.map((a) => a.json()._id as string)).size).toBe(1);
      expect(await mine(user)).toHaveLength(MAX_ALERTS_PER_USER);
      // At the limit, a copy still answers its alert; only a new alert is refused.
      expect((await post('/api/alerts/create', { searchTerm: 'Calculus' }, user)).statusCode).toBe(
        200,
      );
      const over = await post('/api/alerts/create', { searchTerm: 'algebra' }, user);
      expect(over.statusCode).toBe(409);
      expect(over.json().message).toBe(ALERT_MESSAGES.tooMany);
    });

    it('the database refuses a copy that skips the service', async () => {
      const user = await createUser(t);
      const values = {
        userId: user.id,
        termWords: ['calculus', 'early'],
        courseNumber: '101',
        maxPrice: 20,
      };
      await t.database.db.insert(alerts).values(values);
      await expect(
        t.database.db.insert(alerts).values({ ...values, maxPrice: 20.0 }),
      ).rejects.toThrow();
      const other = await createUser(t);
      await t.database.db.insert(alerts).values({ ...values, userId: other.id });
      await t.database.db.insert(alerts).values({ ...values, maxPrice: null });
    });

    it('the migration keeps the live copy changed last, moves the mail rows to it, and cleans listing names', async () => {
      const user = await createUser(t);
      const migration = readFileSync(
        new URL('../../db/migrations/0018_alert-duplicates.sql', import.meta.url),
        'utf8',
      );
      await t.database.db.execute(sql`DROP INDEX alerts_same_filters`);
      const base = { userId: user.id, subject: 'MATH', courseNumber: '211' };
      // The oldest is the live one the student changed last; a newer copy is paused, changed later.
      const [oldest] = await t.database.db
        .insert(alerts)
        .values({
          ...base,
          termWords: ['linear', 'algebra'],
          createdAt: new Date('2026-01-01'),
          updatedAt: new Date('2026-06-01'),
        })
        .returning();
      const copies = await t.database.db
        .insert(alerts)
        .values([
          {
            ...base,
            termWords: ['algebra', 'linear'],
            paused: true,
            createdAt: new Date('2026-02-01'),
            updatedAt: new Date('2026-07-01'),
          },
          {
            ...base,
            termWords: ['linear', 'algebra', 'linear'],
            createdAt: new Date('2026-03-01'),
            updatedAt: new Date('2026-03-01'),
          },
        ])
        .returning();
      const [other] = await t.database.db
        .insert(alerts)
        .values({ ...base, courseNumber: '212', createdAt: new Date('2026-02-01') })
        .returning();
      const [listingId] = await insertListings(t, user.id, [{ name: 'Cal\u200Bcu\u200Dlus Qwzx' }]);
      await t.database.db.insert(alertDeliveries).values({
        userId: user.id,
        listingId: listingId!,
        alertId: copies[0]!.id,
        event: 'alert',
        sentAt: new Date(),
      });

      for (const statement of migration.split('--> statement-breakpoint')) {
        await t.database.db.execute(sql.raw(statement));
      }

      const kept = await mine(user);
      expect(kept.map((a) => a.id).sort()).toEqual([oldest!.id, other!.id].sort());
      expect(kept.find((a) => a.id === oldest!.id)?.termWords).toEqual(['algebra', 'linear']);
      const [delivery] = await t.database.db
        .select()
        .from(alertDeliveries)
        .where(eq(alertDeliveries.listingId, listingId!));
      expect(delivery).toMatchObject({ alertId: oldest!.id });
      const [listing] = await t.database.db
        .select()
        .from(listings)
        .where(eq(listings.id, listingId!));
      expect(listing?.name).toBe('Calculus Qwzx');
      const query = { searchTerm: 'calculus qwzx' };
      const found = dataOf(await routeCaller(() => t)('GET /api/listing/get', { query }));
      expect(found.map((l) => [l._id, l.name])).toEqual([[listingId, 'Calculus Qwzx']]);
      await expect(
        t.database.db.insert(alerts).values({ ...base, termWords: ['algebra', 'linear'] }),
      ).rejects.toThrow();
    });
  });
});
