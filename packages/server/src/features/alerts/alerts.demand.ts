import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { toIsbn13 } from '@campus-books/common/isbn';
import { demandQuerySchema, type WantedCourse } from '@campus-books/common/alert.schemas';

const WEEK_MS = 7 * 24 * 60 * 60_000;

/**
 * How many students look for a course's or a book's listings: owners of live alerts for it and
 * savers of its active listings, each counted once. Only a number: nobody is named.
 */
export async function countDemand(
  db: Db,
  query: { isbn?: string; subject?: string; courseNumber?: string },
): Promise<number> {
  const { isbn, subject, courseNumber } = query;
  const alertWhere = isbn
    ? sql`a.isbn = ${isbn}`
    : sql`a.subject = ${subject ?? null} AND a.course_number = ${courseNumber ?? null}`;
  const listingWhere = isbn
    ? sql`l.isbn = ${isbn}`
    : sql`l.subject = ${subject ?? null} AND l.course_number = ${courseNumber ?? null}`;
  const [row] = await rowsOf<{ students: number }>(
    db,
    sql`
    SELECT count(*)::int AS students FROM (
      SELECT a.user_id FROM alerts a WHERE NOT a.paused AND ${alertWhere}
      UNION
      SELECT s.user_id FROM saved_listings s JOIN listings l ON l.id = s.listing_id
      WHERE l.status = 'active' AND ${listingWhere}
    ) AS wanting`,
  );
  return row?.students ?? 0;
}

/** The students wanting the book (by its ISBN) or else the course; null when it names neither. */
export function demandFor(
  db: Db,
  { isbn, subject, courseNumber }: z.infer<typeof demandQuerySchema>,
): Promise<number> | null {
  if (isbn) return countDemand(db, { isbn: toIsbn13(isbn) ?? undefined });
  if (subject && courseNumber) return countDemand(db, { subject, courseNumber });
  return null;
}

/**
 * The count a server-rendered page's demand line would be answered (its ISBN, else its course),
 * read as GET /api/alerts/demand reads the question; null where the route would refuse it.
 */
export function pageDemand(
  db: Db,
  asked: { isbn?: string | null; subject?: string | null; courseNumber?: string | null },
): Promise<number> | null {
  const parsed = demandQuerySchema.safeParse(
    asked.isbn
      ? { isbn: asked.isbn }
      : { subject: asked.subject ?? undefined, courseNumber: asked.courseNumber ?? undefined },
  );
  return parsed.success ? demandFor(db, parsed.data) : null;
}

/** The courses with the most students' alerts made this week and the fewest active listings. */
export async function mostWanted(db: Db, now: Date, limit = 5): Promise<WantedCourse[]> {
  const since = new Date(now.getTime() - WEEK_MS).toISOString();
  return rowsOf<WantedCourse>(
    db,
    sql`
    SELECT a.subject, a.course_number AS "courseNumber", count(DISTINCT a.user_id)::int AS students,
      (SELECT count(*)::int FROM listings l
        WHERE l.subject = a.subject AND l.course_number = a.course_number AND l.status = 'active') AS listings
    FROM alerts a
    WHERE NOT a.paused AND a.subject IS NOT NULL AND a.course_number IS NOT NULL
      AND a.created_at > ${since}::timestamptz
    GROUP BY a.subject, a.course_number
    ORDER BY students DESC, listings ASC, a.subject, a.course_number
    LIMIT ${limit}`,
  );
}
