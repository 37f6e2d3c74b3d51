import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { rowsOf } from '../../db/rows';
import { SUBJECT_CODES } from '@campus-books/common/campus';
import { toIsbn13 } from '@campus-books/common/isbn';

const WEEK_MS = 7 * 24 * 60 * 60_000;

/**
 * How many students look for a course's or a book's listings: owners of live alerts for it and
 * savers of its active listings, each counted once. Only a number: nobody is named.
 */
export async function countDemand(
  app: FastifyInstance,
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
    app.database.db,
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

/**
 * The count a page's demand line would be answered by GET /api/alerts/demand (its ISBN, else its
 * course, read as the route reads them), for a server-rendered page; null where the route would
 * refuse the question.
 */
export function pageDemand(
  app: FastifyInstance,
  asked: { isbn?: string | null; subject?: string | null; courseNumber?: string | null },
): Promise<number> | null {
  if (asked.isbn) {
    const isbn = asked.isbn.length <= 20 ? toIsbn13(asked.isbn) : null;
    return isbn ? countDemand(app, { isbn }) : null;
  }
  const subject = asked.subject?.toUpperCase();
  const courseNumber = asked.courseNumber?.trim();
  if (!subject || !SUBJECT_CODES.has(subject) || !courseNumber || courseNumber.length > 20) {
    return null;
  }
  return countDemand(app, { subject, courseNumber });
}

export interface WantedCourse {
  subject: string;
  courseNumber: string;
  students: number;
  listings: number;
}

/** The courses with the most students' alerts made this week and the fewest active listings. */
export async function mostWanted(
  app: FastifyInstance,
  now: Date,
  limit = 5,
): Promise<WantedCourse[]> {
  const since = new Date(now.getTime() - WEEK_MS).toISOString();
  return rowsOf<WantedCourse>(
    app.database.db,
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
