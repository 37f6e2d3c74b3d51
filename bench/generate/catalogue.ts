import { CONDITIONS } from '@campus-books/common/constants';
import { toIsbn13 } from '@campus-books/common/isbn';
import type { listings, users } from '../../packages/server/src/db/schema';
import { defaultCampus } from './campus';
import { SeededRandom } from './random';
import {
  listingDescription,
  MAJOR_VALUES_LIST,
  pickupPlace,
  schoolsForMajor,
  textbookTitle,
} from './textbooks';

export type NewUser = typeof users.$inferInsert;
export type NewListing = typeof listings.$inferInsert;

/** The catalogue's dates end here (not "now"), so the same seed gives the same rows on any day. */
export const CATALOGUE_END = new Date('2026-11-01T00:00:00Z');
const TWO_YEARS_MS = 730 * 24 * 60 * 60 * 1000;
/** Sellers list about five books each. */
const LISTINGS_PER_SELLER = 5;
export const SOLD_SHARE = 0.1;

const CONDITION_WEIGHTS = [
  [CONDITIONS[0], 15],
  [CONDITIONS[1], 35],
  [CONDITIONS[2], 35],
  [CONDITIONS[3], 15],
] as const;

export function sellerCount(listingCount: number): number {
  return Math.max(10, Math.ceil(listingCount / LISTINGS_PER_SELLER));
}

/** The generated sellers; they never sign in, so they share one password hash (argon2 is slow on purpose). */
export function* generateSellers(
  seed: number,
  count: number,
  passwordHash: string,
): Generator<NewUser> {
  const random = new SeededRandom(seed ^ 0x5e11e5);
  for (let i = 0; i < count; i++) {
    const createdAt = new Date(
      CATALOGUE_END.getTime() - TWO_YEARS_MS - random.int(0, 90) * 86_400_000,
    );
    yield {
      id: random.uuid(),
      firstName: `Student`,
      lastName: `Seller ${i + 1}`,
      username: `seller${i + 1}`,
      email: `seller${i + 1}@richmond.edu`,
      passwordHash,
      groupmelink: `https://groupme.com/contact/${100000 + i}`,
      emailVerifiedAt: createdAt,
      createdAt,
      updatedAt: createdAt,
    };
  }
}

function price(random: SeededRandom): { regularPrice: number; discountPrice: number } {
  // Used textbooks: most between $10 and $120, a long tail up to ~$300.
  const regular = Math.round(Math.min(300, 5 + Math.exp(random.next() * 4.2 + 1.5)) * 100) / 100;
  const regularPrice = random.chance(0.5) ? Math.floor(regular) : regular;
  const discountPrice = random.chance(0.35)
    ? Math.round(regularPrice * (0.5 + random.next() * 0.45) * 100) / 100
    : 0;
  return { regularPrice, discountPrice };
}

/** The ISBN-13 of the catalogue's k-th book (978 + k, with its check digit). */
export function catalogueIsbn(k: number): string {
  const first12 = `978${String(k).padStart(9, '0')}`;
  for (let digit = 0; ; digit++) {
    const isbn = toIsbn13(`${first12}${digit}`);
    if (isbn) return isbn;
  }
}

/**
 * The book and course fields (issue "Books and courses"), from their own random stream so the other
 * fields stay what the seed gave before: 60 % of listings name an ISBN among about one book per four
 * listings (so a book has several copies), 70 % a subject.
 */
function bookFields(random: SeededRandom, count: number) {
  const books = Math.max(50, Math.floor(count / 4));
  return {
    isbn: random.chance(0.6) ? catalogueIsbn(random.int(1, books)) : null,
    subject: random.chance(0.7) ? random.pick(defaultCampus.subjects).code : null,
  };
}

/** Listing rows, reproducible from the seed; `sellerIds[0]` is the bench user, who owns the first `ownedByFirst`. */
export function* generateListings(
  seed: number,
  count: number,
  sellerIds: readonly string[],
  imageUrl: (random: SeededRandom) => string,
  ownedByFirst = 0,
): Generator<NewListing> {
  const random = new SeededRandom(seed);
  const bookRandom = new SeededRandom(seed ^ 0xb00c5);
  for (let i = 0; i < count; i++) {
    const { title, subject } = textbookTitle(random);
    const courseNumber = String(random.int(100, 499));
    const major = random.chance(0.9) ? random.pick(MAJOR_VALUES_LIST) : '';
    const createdAt = new Date(CATALOGUE_END.getTime() - Math.floor(random.next() * TWO_YEARS_MS));
    const isSold = i >= ownedByFirst && random.chance(SOLD_SHARE);
    const soldAt = isSold
      ? new Date(
          createdAt.getTime() +
            Math.floor(random.next() * (CATALOGUE_END.getTime() - createdAt.getTime())),
        )
      : null;
    const owner = i < ownedByFirst ? sellerIds[0]! : sellerIds[1 + (i % (sellerIds.length - 1))]!;
    yield {
      id: random.uuid(),
      userId: owner,
      name: title,
      courseNumber,
      description: listingDescription(random, subject, courseNumber),
      address: '',
      pickupLocation: pickupPlace(random),
      condition: random.weighted(CONDITION_WEIGHTS),
      ...price(random),
      imageUrls: Array.from(
        {
          length: random.weighted([
            [1, 5],
            [2, 3],
            [3, 2],
          ] as const),
        },
        () => imageUrl(random),
      ),
      schools: major === '' ? [] : schoolsForMajor(major),
      major,
      type: random.chance(0.1) ? 'rent' : 'sale',
      status: isSold ? 'sold' : 'active',
      soldAt,
      createdAt,
      updatedAt: soldAt ?? createdAt,
      ...bookFields(bookRandom, count),
    };
  }
}

/** Image URLs while the images pipeline is not integrated: https URLs on a host that never resolves. */
export const EXTERNAL_IMAGE_HOST = 'https://images.campus-books.test';
export function externalImageUrl(random: SeededRandom): string {
  return `${EXTERNAL_IMAGE_HOST}/textbooks/${random.int(1, 5000)}.webp`;
}
