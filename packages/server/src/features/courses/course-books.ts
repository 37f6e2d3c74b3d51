import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import {
  SOLD_PRICE_MIN_COUNT,
  type CourseBook,
  type PriceSummary,
} from '@campus-books/common/book.schemas';
import type { CourseCode } from '@campus-books/common/course';
import type { Db } from '../../db/database';
import { textLiteral } from '../../db/literal';
import { preparedOnce } from '../../db/prepared';
import { listings } from '../../db/schema';

/** The most listings a course page reads: far more copies than any course ever has. */
const MAX_COURSE_LISTINGS = 2_000;

/** A title as books are grouped by it: case, punctuation and spacing set aside. */
export function normaliseTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The active listings of a course, cheapest first: a named statement built once (with or without a
 * subject), so a course page neither builds its SQL nor has it parsed again.
 */
const courseListings = (db: Db, hasSubject: boolean) =>
  preparedOnce(db, hasSubject ? 'course_listings' : 'course_listings_no_subject', (name) =>
    db
      .select({
        id: listings.id,
        name: listings.name,
        isbn: listings.isbn,
        authors: listings.authors,
        edition: listings.edition,
        price: listings.regularPrice,
      })
      .from(listings)
      .where(
        and(
          hasSubject ? eq(listings.subject, sql.placeholder('subject')) : isNull(listings.subject),
          eq(listings.courseNumber, sql.placeholder('courseNumber')),
          eq(listings.status, textLiteral('active')),
        ),
      )
      .orderBy(asc(listings.regularPrice), asc(listings.id))
      .limit(MAX_COURSE_LISTINGS)
      .prepare(name),
  );

/**
 * Every active listing of a course, grouped by book: by ISBN, else by normalised title; books with
 * the most copies first, then by lowest price. A course without a subject is the listings of that
 * number that name none. One index range (listings_subject_course_idx).
 */
export async function findCourseBooks(db: Db, course: CourseCode): Promise<CourseBook[]> {
  const rows = await courseListings(db, course.subject !== null).execute({
    subject: course.subject,
    courseNumber: course.courseNumber,
  });
  const byBook = new Map<string, CourseBook>();
  for (const row of rows) {
    const key = row.isbn ? `isbn:${row.isbn}` : `title:${normaliseTitle(row.name)}`;
    const price = Number(row.price);
    const book = byBook.get(key);
    if (!book) {
      byBook.set(key, {
        isbn: row.isbn,
        title: row.name,
        authors: row.authors,
        edition: row.edition,
        copies: 1,
        lowestPrice: price,
        highestPrice: price,
        listingIds: [row.id],
      });
      continue;
    }
    book.copies += 1;
    book.highestPrice = Math.max(book.highestPrice, price);
    book.listingIds.push(row.id);
    book.authors ??= row.authors;
    book.edition ??= row.edition;
  }
  return [...byBook.values()].sort(
    (a, b) =>
      b.copies - a.copies || a.lowestPrice - b.lowestPrice || a.title.localeCompare(b.title),
  );
}

/** The median of prices (sorted ascending), or null for none. */
function median(sorted: number[]): number | null {
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  const value =
    sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return Math.round(value * 100) / 100;
}

/**
 * The price hint before an ISBN is known: this course's listings whose title is the same as `title`
 * once case, punctuation and spacing are set aside (active: count and range; sold: the median from
 * SOLD_PRICE_MIN_COUNT sales up). One index range (listings_subject_course_idx).
 */
export async function findCourseTitlePrices(
  db: Db,
  course: CourseCode,
  title: string,
): Promise<PriceSummary> {
  const rows = await db
    .select({ name: listings.name, price: listings.regularPrice, status: listings.status })
    .from(listings)
    .where(
      and(
        course.subject ? eq(listings.subject, course.subject) : isNull(listings.subject),
        eq(listings.courseNumber, course.courseNumber),
      ),
    )
    .limit(MAX_COURSE_LISTINGS);
  const wanted = normaliseTitle(title);
  const same = rows.filter((r) => normaliseTitle(r.name) === wanted);
  const active = same.filter((r) => r.status === 'active').map((r) => Number(r.price));
  const sold = same
    .filter((r) => r.status === 'sold')
    .map((r) => Number(r.price))
    .sort((a, b) => a - b);
  return {
    active: {
      count: active.length,
      min: active.length > 0 ? Math.min(...active) : null,
      max: active.length > 0 ? Math.max(...active) : null,
    },
    sold: {
      count: sold.length,
      median: sold.length >= SOLD_PRICE_MIN_COUNT ? median(sold) : null,
    },
  };
}
