import { and, asc, eq, sql } from 'drizzle-orm';
import type { CourseCode } from '@campus-books/common/course';
import { COURSE_LIST_MESSAGES, MAX_MY_COURSES, courseKey } from '@campus-books/common/course-list';
import type { Db } from '../../db/database';
import { userCourses } from '../../db/courses.schema';
import { AppError } from '../../lib/errors';
import { lockUserRow } from '../accounts/users.repository';

export type SubjectCourse = CourseCode & { subject: string };

/** A student's courses, in the order they were added. */
export async function findMyCourses(db: Db, userId: string): Promise<SubjectCourse[]> {
  return db
    .select({ subject: userCourses.subject, courseNumber: userCourses.courseNumber })
    .from(userCourses)
    .where(eq(userCourses.userId, userId))
    .orderBy(asc(userCourses.createdAt), asc(userCourses.subject), asc(userCourses.courseNumber));
}

/**
 * Adds courses to a student's list: those already in it are left as they are (a repeated request
 * adds nothing), and more than MAX_MY_COURSES in all is a 409 that adds none. The owner's row is
 * locked first, so concurrent adds count one after the other.
 */
export async function addMyCourses(
  db: Db,
  userId: string,
  courses: SubjectCourse[],
): Promise<{ added: SubjectCourse[]; already: SubjectCourse[] }> {
  return db.transaction(async (tx) => {
    await lockUserRow(tx, userId);
    const mine = new Set((await findMyCourses(tx, userId)).map(courseKey));
    const added = courses.filter((c) => !mine.has(courseKey(c)));
    const already = courses.filter((c) => mine.has(courseKey(c)));
    if (mine.size + added.length > MAX_MY_COURSES) {
      throw new AppError(409, COURSE_LIST_MESSAGES.tooMany);
    }
    // One timestamp a course apart keeps the order given within one request.
    const now = Date.now();
    if (added.length > 0) {
      await tx
        .insert(userCourses)
        .values(added.map((c, i) => ({ userId, ...c, createdAt: new Date(now + i) })))
        .onConflictDoNothing();
    }
    return { added, already };
  });
}

/** Removes a course from a student's list; removing one that is not there changes nothing. */
export async function removeMyCourse(db: Db, userId: string, course: SubjectCourse): Promise<void> {
  await db
    .delete(userCourses)
    .where(
      and(
        eq(userCourses.userId, userId),
        eq(userCourses.subject, course.subject),
        eq(userCourses.courseNumber, course.courseNumber),
      ),
    );
}

/** Course numbers the catalogue knows for a subject, starting with `prefix`: completion. */
export async function suggestCourseNumbers(
  db: Db,
  subject: string,
  prefix: string,
  limit = 8,
): Promise<string[]> {
  const like = `${prefix.replace(/[%_\\]/g, '')}%`;
  const result = (await db.execute(sql`
    SELECT course_number FROM (
      SELECT DISTINCT course_number FROM listings
      WHERE subject = ${subject} AND course_number LIKE ${like}
      UNION
      SELECT DISTINCT course_number FROM required_books
      WHERE subject = ${subject} AND course_number LIKE ${like}
    ) AS known ORDER BY course_number LIMIT ${limit}`)) as unknown as {
    rows: Array<{ course_number: string }>;
  };
  return result.rows.map((r) => r.course_number);
}
