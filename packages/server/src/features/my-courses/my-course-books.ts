import { and, asc, eq, inArray, isNotNull, not, sql } from 'drizzle-orm';
import { SOLD_PRICE_MIN_COUNT, type PriceSummary } from '@campus-books/common/book.schemas';
import {
  MY_COURSES_CHEAPEST,
  toMyCourse,
  type CourseBooksAnswer,
  type MyCourseBook,
} from '@campus-books/common/my-courses.schemas';
import type { Db } from '../../db/database';
import { books, listings } from '../../db/schema';
import { alerts } from '../../db/alerts.schema';
import { normaliseTitle } from '../courses/course-books';
import { findRequiredBooks, inCourses } from '../courses/required-books.repository';
import { visibleTo, type ListingViewer } from '../listings/listing-visibility';
import type { SubjectCourse } from './my-courses.repository';

/** The most listings read for one page: far more copies than five courses ever have. */
const MAX_ROWS = 5_000;
/** The most books shown for one course. */
const MAX_BOOKS_PER_COURSE = 30;

interface PriceRow {
  id: string;
  price: number;
  condition: string;
  status: string;
}

/** The price hint (as GET /api/books/{isbn}/prices reads it), cheapest copies and highest price. */
function priceBook(rows: PriceRow[]): Pick<MyCourseBook, 'cheapest' | 'prices' | 'highestPrice'> {
  const active = rows.filter((r) => r.status === 'active').sort((a, b) => a.price - b.price);
  const sold = rows
    .filter((r) => r.status === 'sold')
    .map((r) => r.price)
    .sort((a, b) => a - b);
  const middle = Math.floor(sold.length / 2);
  const median =
    sold.length % 2 === 1 ? sold[middle]! : ((sold[middle - 1] ?? 0) + (sold[middle] ?? 0)) / 2;
  const prices: PriceSummary = {
    active: {
      count: active.length,
      min: active[0]?.price ?? null,
      max: active.at(-1)?.price ?? null,
    },
    sold: {
      count: sold.length,
      median: sold.length >= SOLD_PRICE_MIN_COUNT ? Math.round(median * 100) / 100 : null,
    },
  };
  const all = rows.map((r) => r.price);
  return {
    cheapest: active
      .slice(0, MY_COURSES_CHEAPEST)
      .map((r) => ({ _id: r.id, price: r.price, condition: r.condition })),
    prices,
    highestPrice: all.length > 0 ? Math.max(...all) : null,
  };
}

const rowColumns = {
  id: listings.id,
  name: listings.name,
  isbn: listings.isbn,
  subject: listings.subject,
  courseNumber: listings.courseNumber,
  price: sql<number>`${listings.regularPrice}::float8`,
  condition: listings.condition,
  status: listings.status,
};
const currentOrSold = inArray(listings.status, ['active', 'sold']);

/**
 * /my-courses' books: for each course, the books known for it (the required-books list, the
 * course's listings and sales, the ISBNs of the campus's alerts for it), each with its cheapest
 * active listings and its campus price hint, read over every visible listing of its ISBN (a copy
 * filed under another course is the same book). Two index ranges on listings: the courses'
 * (listings_subject_course_idx), then their ISBNs' (listings_isbn_idx).
 */
export async function findMyCourseBooks(
  db: Db,
  courses: SubjectCourse[],
  viewer: ListingViewer | null,
): Promise<Omit<CourseBooksAnswer, 'success'>> {
  const visible = visibleTo(viewer);
  const [required, alerted, courseRows] = await Promise.all([
    findRequiredBooks(db, courses),
    courses.length === 0
      ? []
      : db
          .selectDistinct({
            subject: alerts.subject,
            courseNumber: alerts.courseNumber,
            isbn: alerts.isbn,
          })
          .from(alerts)
          .where(
            and(
              inCourses(
                { subject: sql`${alerts.subject}`, courseNumber: sql`${alerts.courseNumber}` },
                courses,
              ),
              isNotNull(alerts.isbn),
              not(alerts.paused),
            ),
          ),
    courses.length === 0
      ? []
      : db
          .select(rowColumns)
          .from(listings)
          .where(
            and(
              inCourses(
                { subject: sql`${listings.subject}`, courseNumber: sql`${listings.courseNumber}` },
                courses,
              ),
              currentOrSold,
              visible,
            ),
          )
          .orderBy(asc(listings.regularPrice))
          .limit(MAX_ROWS),
  ]);
  const isbns = [
    ...new Set([
      ...required.map((r) => r.isbn),
      ...alerted.map((a) => a.isbn!),
      ...courseRows.flatMap((r) => (r.isbn ? [r.isbn] : [])),
    ]),
  ];
  const [isbnRows, titles] =
    isbns.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .select(rowColumns)
            .from(listings)
            .where(and(inArray(listings.isbn, isbns), currentOrSold, visible))
            .limit(MAX_ROWS),
          db
            .select({ isbn: books.isbn, title: books.title })
            .from(books)
            .where(and(inArray(books.isbn, isbns), eq(books.found, true))),
        ]);
  const byIsbn = new Map<string, PriceRow[]>();
  const titleOf = new Map<string, string>();
  for (const t of titles) if (t.title) titleOf.set(t.isbn, t.title);
  for (const row of isbnRows) {
    byIsbn.set(row.isbn!, [...(byIsbn.get(row.isbn!) ?? []), row]);
    if (!titleOf.has(row.isbn!)) titleOf.set(row.isbn!, row.name);
  }

  const answerCourses = courses.map((course) => {
    const found = new Map<
      string,
      {
        isbn: string | null;
        title: string;
        required: boolean | null;
        sources: Set<MyCourseBook['sources'][number]>;
        rows: PriceRow[];
      }
    >();
    const book = (isbn: string | null, title: string) => {
      const key = isbn ? `isbn:${isbn}` : `title:${normaliseTitle(title)}`;
      let entry = found.get(key);
      if (!entry) {
        entry = { isbn, title, required: null, sources: new Set(), rows: [] };
        found.set(key, entry);
      }
      return entry;
    };
    const same = (r: { subject: string | null; courseNumber: string | null }) =>
      r.subject === course.subject && r.courseNumber === course.courseNumber;
    for (const r of required.filter(same)) {
      const entry = book(r.isbn, r.title);
      entry.title = r.title;
      entry.required = r.required;
      entry.sources.add('required');
    }
    for (const r of courseRows.filter(same)) {
      const entry = book(r.isbn, r.name);
      entry.sources.add(r.status === 'active' ? 'listings' : 'sales');
      if (!r.isbn) entry.rows.push(r);
    }
    for (const a of alerted.filter(same))
      book(a.isbn, titleOf.get(a.isbn!) ?? `ISBN ${a.isbn}`).sources.add('alerts');
    const rank = (b: { required: boolean | null }) =>
      b.required === true ? 0 : b.required === false ? 1 : 2;
    const courseBooks: MyCourseBook[] = [...found.values()]
      .map((b) => ({
        isbn: b.isbn,
        title: b.isbn && b.required === null ? (titleOf.get(b.isbn) ?? b.title) : b.title,
        required: b.required,
        sources: [...b.sources].sort(),
        ...priceBook(b.isbn ? (byIsbn.get(b.isbn) ?? []) : b.rows),
      }))
      .sort(
        (a, b) =>
          rank(a) - rank(b) ||
          b.prices.active.count - a.prices.active.count ||
          a.title.localeCompare(b.title),
      )
      .slice(0, MAX_BOOKS_PER_COURSE);
    return { ...toMyCourse(course), books: courseBooks };
  });

  // The term's books, each once (a book two courses use is bought once).
  const distinct = new Map<string, MyCourseBook>();
  for (const c of answerCourses) {
    for (const b of c.books) distinct.set(b.isbn ?? `${c.slug}:${normaliseTitle(b.title)}`, b);
  }
  const available = [...distinct.values()].filter((b) => b.cheapest.length > 0);
  const cents = (n: number) => Math.round(n * 100);
  return {
    courses: answerCourses,
    summary: {
      books: distinct.size,
      available: available.length,
      costToday: available.reduce((sum, b) => sum + cents(b.cheapest[0]!.price), 0) / 100,
      highestTotal: available.reduce((sum, b) => sum + cents(b.highestPrice ?? 0), 0) / 100,
    },
  };
}
