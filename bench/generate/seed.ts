import { sql } from 'drizzle-orm';
import type { Database } from '../../packages/server/src/db/database';
import { listings, users } from '../../packages/server/src/db/schema';
import { hashPassword } from '../../packages/server/src/features/accounts/password';
import {
  CATALOGUE_END,
  externalImageUrl,
  generateListings,
  generateSellers,
  sellerCount,
  type NewListing,
} from './catalogue';
import { storeCataloguePhotos } from './images';
import { SeededRandom } from './random';

/** The signed-in seller of the write scenarios; the password respects the product's 8–128 rule. */
export const BENCH_USER = { email: 'bench.seller@richmond.edu', password: 'Bench-pass1' } as const;
/** Listings the bench user owns from the start, so updates and mark-as-sold have targets at once. */
export const BENCH_OWNED_LISTINGS = 60;
const BATCH_ROWS = 1000;
const SAMPLE_IDS = 1000;
const SAMPLE_BOOKS = 200;

export interface SeedResult {
  listings: number;
  sellers: number;
  benchUserId: string;
  /** Ids of active listings for the "listing by id" scenario, drawn with the seed. */
  sampleListingIds: string[];
  /** ISBNs and course codes ('ECON-101') of active listings, for the ISBN search and course pages. */
  sampleIsbns: string[];
  sampleCourses: string[];
  /** The bench user's active listings (write targets). */
  ownedListingIds: string[];
  /** Photos the bench user owns, for the listings it creates and updates (empty: external URLs). */
  benchImageUrls: string[];
  seconds: number;
}

async function insertInBatches<T>(rows: Iterable<T>, insert: (batch: T[]) => Promise<unknown>) {
  let batch: T[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === BATCH_ROWS) {
      await insert(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await insert(batch);
}

/**
 * Fills a freshly migrated database with a catalogue of `size` listings and its sellers, through the
 * server's own drizzle schema (batched multi-row INSERTs), then VACUUM (ANALYZE): statistics to plan
 * with, and the visibility map that index-only scans need, as a catalogue that has existed for a
 * while has them (autovacuum on PostgreSQL, the server's hourly maintenance on PGlite).
 */
export async function seedCatalogue(
  database: Database,
  options: {
    size: number;
    seed: number;
    analyze: boolean;
    /** With a DATA_DIR, listings get real stored photos; without, external https URLs. */
    dataDir?: string;
  },
): Promise<SeedResult> {
  const started = performance.now();
  const { db } = database;
  const [benchHash, sellerHash] = await Promise.all([
    hashPassword(BENCH_USER.password),
    hashPassword(`seller-${options.seed}`),
  ]);
  const benchUserId = new SeededRandom(options.seed ^ 0xbe7c4).uuid();
  await db.insert(users).values({
    id: benchUserId,
    firstName: 'Bench',
    lastName: 'Seller',
    username: 'benchseller',
    email: BENCH_USER.email,
    passwordHash: benchHash,
    groupmelink: 'https://groupme.com/contact/bench',
    emailVerifiedAt: CATALOGUE_END,
  });

  const sellers = sellerCount(options.size);
  const sellerIds = [benchUserId];
  await insertInBatches(generateSellers(options.seed, sellers, sellerHash), async (batch) => {
    sellerIds.push(...batch.map((u) => u.id!));
    await db.insert(users).values(batch);
  });

  const photoUrls = options.dataDir
    ? await storeCataloguePhotos(database, {
        dataDir: options.dataDir,
        ownerId: benchUserId,
        seed: options.seed,
      })
    : [];
  const imageUrl = photoUrls.length > 0 ? (r: SeededRandom) => r.pick(photoUrls) : externalImageUrl;

  const pickSample = new SeededRandom(options.seed ^ 0x1d5);
  const sampleShare = Math.min(1, SAMPLE_IDS / options.size);
  const sampleListingIds: string[] = [];
  const ownedListingIds: string[] = [];
  const sampleIsbns = new Set<string>();
  const sampleCourses = new Set<string>();
  const rows = generateListings(
    options.seed,
    options.size,
    sellerIds,
    imageUrl,
    BENCH_OWNED_LISTINGS,
  );
  await insertInBatches<NewListing>(rows, async (batch) => {
    for (const row of batch) {
      if (row.userId === benchUserId) ownedListingIds.push(row.id!);
      else if (row.status === 'active' && pickSample.chance(sampleShare)) {
        sampleListingIds.push(row.id!);
        if (row.isbn && sampleIsbns.size < SAMPLE_BOOKS) sampleIsbns.add(row.isbn);
        if (row.subject && sampleCourses.size < SAMPLE_BOOKS)
          sampleCourses.add(`${row.subject}-${row.courseNumber}`);
      }
    }
    await db.insert(listings).values(batch);
  });
  if (options.analyze) await db.execute(sql`VACUUM (ANALYZE)`);
  return {
    listings: options.size,
    sellers: sellers + 1,
    benchUserId,
    sampleListingIds,
    sampleIsbns: [...sampleIsbns],
    sampleCourses: [...sampleCourses],
    ownedListingIds,
    benchImageUrls: photoUrls,
    seconds: (performance.now() - started) / 1000,
  };
}
