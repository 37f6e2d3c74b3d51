import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { requiredBooks } from '../../db/courses.schema';

/** The one writer of `required_books`. */

export type RequiredBookRow = typeof requiredBooks.$inferSelect;

/**
 * Replaces the whole list in one transaction (readers see the old list or the new one, never a
 * part), inserting a thousand rows per statement.
 */
export async function replaceRequiredBooks(
  db: Db,
  rows: Array<Omit<RequiredBookRow, 'importedAt'>>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(requiredBooks);
    for (let i = 0; i < rows.length; i += 1_000) {
      await tx.insert(requiredBooks).values(rows.slice(i, i + 1_000));
    }
  });
}

/** A condition matching any of the courses on (subject, course_number) columns. */
export function inCourses(
  columns: {
    subject: SQL | typeof requiredBooks.subject;
    courseNumber: SQL | typeof requiredBooks.courseNumber;
  },
  courses: Array<{ subject: string; courseNumber: string }>,
): SQL {
  return (
    or(
      ...courses.map((c) =>
        and(
          sql`${columns.subject} = ${c.subject}`,
          sql`${columns.courseNumber} = ${c.courseNumber}`,
        ),
      ),
    ) ?? sql`FALSE`
  );
}

/** The required-books list of some courses (its primary key's range). */
export async function findRequiredBooks(
  db: Db,
  courses: Array<{ subject: string; courseNumber: string }>,
): Promise<RequiredBookRow[]> {
  if (courses.length === 0) return [];
  return db
    .select()
    .from(requiredBooks)
    .where(inCourses(requiredBooks, courses))
    .orderBy(
      requiredBooks.subject,
      requiredBooks.courseNumber,
      sql`${requiredBooks.required} DESC`,
      requiredBooks.title,
    );
}

/** One course's required-books list. */
export function findCourseRequiredBooks(db: Db, course: { subject: string; courseNumber: string }) {
  return db
    .select()
    .from(requiredBooks)
    .where(
      and(
        eq(requiredBooks.subject, course.subject),
        eq(requiredBooks.courseNumber, course.courseNumber),
      ),
    )
    .orderBy(sql`${requiredBooks.required} DESC`, requiredBooks.title);
}
