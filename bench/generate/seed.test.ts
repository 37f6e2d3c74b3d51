import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toIsbn13 } from '@campus-books/common/isbn';
import { CONDITIONS } from '@campus-books/common/constants';
import { openDatabase, type Database } from '../../packages/server/src/db/database';
import { listings, users } from '../../packages/server/src/db/schema';
import { verifyPassword } from '../../packages/server/src/features/accounts/password';
import { defaultCampus } from './campus';
import { CATALOGUE_END, externalImageUrl, generateListings } from './catalogue';
import { BENCH_OWNED_LISTINGS, BENCH_USER, seedCatalogue, type SeedResult } from './seed';
import { schoolsForMajor } from './textbooks';

const SIZE = 200;
const TWO_YEARS_MS = 730 * 86_400_000;

describe('catalogue generator (200 listings into an in-memory PGlite)', () => {
  let database: Database;
  let seeded: SeedResult;
  beforeAll(async () => {
    database = await openDatabase({ engine: 'pglite' });
    seeded = await seedCatalogue(database, { size: SIZE, seed: 7, analyze: true });
  });
  afterAll(() => database?.close());

  it('inserts the listings and their sellers', async () => {
    const [l] = await database.db.select({ n: count() }).from(listings);
    const [u] = await database.db.select({ n: count() }).from(users);
    expect(l!.n).toBe(SIZE);
    expect(u!.n).toBe(seeded.sellers);
    expect(seeded.ownedListingIds).toHaveLength(BENCH_OWNED_LISTINGS);
  });

  it('makes realistic rows: conditions, course numbers, majors and schools, dates, ~10% sold', async () => {
    const rows = await database.db.select().from(listings);
    expect(new Set(rows.map((r) => r.condition))).toEqual(new Set(CONDITIONS));
    const sold = rows.filter((r) => r.status === 'sold').length;
    expect(sold).toBeGreaterThan(0);
    expect(sold / (SIZE - BENCH_OWNED_LISTINGS)).toBeLessThan(0.25);
    for (const row of rows) {
      expect(Number(row.courseNumber)).toBeGreaterThanOrEqual(100);
      expect(Number(row.courseNumber)).toBeLessThanOrEqual(499);
      if (row.major) {
        expect(defaultCampus.majorValues.has(row.major)).toBe(true);
        expect(row.schools).toEqual(schoolsForMajor(row.major));
        // Keys of the campus's schools, in its order (as the server stores them).
        expect(row.schools).toEqual(
          defaultCampus.schoolKeys.filter((k) => row.schools.includes(k)),
        );
      }
      expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(
        CATALOGUE_END.getTime() - TWO_YEARS_MS,
      );
      expect(row.createdAt.getTime()).toBeLessThanOrEqual(CATALOGUE_END.getTime());
      expect(row.discountPrice).toBeLessThanOrEqual(row.regularPrice);
      expect(row.imageUrls.length).toBeGreaterThanOrEqual(1);
      expect(row.imageUrls.every((u) => u.startsWith('https://'))).toBe(true);
      expect(row.status === 'sold').toBe(row.soldAt !== null);
      if (row.isbn) expect(toIsbn13(row.isbn)).toBe(row.isbn);
      if (row.subject) expect(defaultCampus.subjectCodes.has(row.subject)).toBe(true);
    }
    // Books have several copies; most listings name a book and a subject.
    const isbns = rows.flatMap((r) => (r.isbn ? [r.isbn] : []));
    expect(isbns.length).toBeGreaterThan(SIZE * 0.4);
    expect(new Set(isbns).size).toBeLessThan(isbns.length);
    expect(rows.filter((r) => r.subject).length).toBeGreaterThan(SIZE * 0.5);
    expect(seeded.sampleIsbns.length).toBeGreaterThan(0);
    expect(seeded.sampleCourses.every((c) => /^[A-Z]{2,4}-\d{3}$/.test(c))).toBe(true);
  });

  it('creates the bench seller verified, with the known password, owning active listings', async () => {
    const [bench] = await database.db.select().from(users).where(eq(users.email, BENCH_USER.email));
    expect(bench!.emailVerifiedAt).not.toBeNull();
    expect(await verifyPassword(bench!.passwordHash, BENCH_USER.password)).toBe(true);
    const owned = await database.db
      .select({ n: count() })
      .from(listings)
      .where(sql`${listings.userId} = ${bench!.id} AND ${listings.status} = 'active'`);
    expect(owned[0]!.n).toBe(BENCH_OWNED_LISTINGS);
  });

  it('is reproducible from the seed, and another seed gives another catalogue', () => {
    const sellers = ['a', 'b', 'c'];
    const take = (seed: number) => [...generateListings(seed, 50, sellers, externalImageUrl)];
    expect(take(7)).toEqual(take(7));
    expect(take(8).map((r) => r.name)).not.toEqual(take(7).map((r) => r.name));
  });
});
