import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listings, users } from '../../src/db/schema';
import { GENEROUS_LIMITS, post } from '../accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { createListingAs, listingBody } from '../listing-fixtures';
import { printFigure } from './security-helpers';

/** Fields only the server sets, under their API and column names. */
const PROTECTED = {
  _id: '00000000-0000-4000-8000-000000000000',
  id: '00000000-0000-4000-8000-000000000000',
  userRef: '',
  userId: '',
  status: 'sold',
  createdAt: '2000-01-01T00:00:00.000Z',
  updatedAt: '2000-01-01T00:00:00.000Z',
  soldAt: '2000-01-01T00:00:00.000Z',
  emailVerified: false,
  emailVerifiedAt: null,
  email_verified_at: null,
  passwordHash: 'x',
  password_hash: 'x',
  pendingEmail: 'attacker@richmond.edu',
};

/**
 * Complements features/listings/listings.routes.test.ts (create ignores server-owned fields) and
 * features/accounts/sign-up.test.ts: the update routes, each protected field alone and all together.
 */
describe(`mass assignment on the update routes (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  const figures = { attempts: 0, protectedFieldsChanged: 0 };
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
    owner = await createUser(t);
    other = await createUser(t);
  });
  afterAll(async () => {
    printFigure(`mass assignment (${TEST_ENGINE})`, figures);
    await t.close();
  });

  const userRow = async () =>
    (await t.database.db.select().from(users).where(eq(users.id, owner.id)))[0]!;
  const listingRow = async (id: string) =>
    (await t.database.db.select().from(listings).where(eq(listings.id, id)))[0]!;

  const variants = () => [
    ...Object.entries(PROTECTED).map(([k, v]) => ({
      [k]: k === 'userRef' || k === 'userId' ? other.id : v,
    })),
    { ...PROTECTED, userRef: other.id, userId: other.id },
  ];

  it('a profile update changes no protected field of the user', async () => {
    const before = await userRow();
    for (const extra of variants()) {
      figures.attempts += 1;
      const res = await post(
        t,
        `/api/user/update/${owner.id}`,
        { username: 'Renamed', ...extra },
        owner.cookie,
      );
      expect(res.statusCode, JSON.stringify(extra)).toBeLessThan(500);
      const after = await userRow();
      for (const field of [
        'id',
        'email',
        'passwordHash',
        'emailVerifiedAt',
        'pendingEmail',
        'createdAt',
      ] as const) {
        if (String(after[field]) !== String(before[field])) figures.protectedFieldsChanged += 1;
        expect(String(after[field]), `${field} after ${JSON.stringify(extra)}`).toBe(
          String(before[field]),
        );
      }
    }
  });

  it('a listing update changes no protected field of the listing', async () => {
    const listing = await createListingAs(t, owner);
    const before = await listingRow(listing._id);
    for (const extra of variants()) {
      figures.attempts += 1;
      const res = await post(
        t,
        `/api/listing/update/${listing._id}`,
        { ...listingBody({ imageUrls: before.imageUrls }), ...extra },
        owner.cookie,
      );
      expect(res.statusCode, JSON.stringify(extra)).toBeLessThan(500);
      const after = await listingRow(listing._id);
      for (const field of ['id', 'userId', 'status', 'soldAt', 'createdAt'] as const) {
        if (String(after[field]) !== String(before[field])) figures.protectedFieldsChanged += 1;
        expect(String(after[field]), `${field} after ${JSON.stringify(extra)}`).toBe(
          String(before[field]),
        );
      }
    }
    expect(figures.protectedFieldsChanged).toBe(0);
  });
});
