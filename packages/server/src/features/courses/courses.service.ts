import { activeCampus } from '@campus-books/common/active-campus';
import type { CourseAnswer } from '@campus-books/common/book.schemas';
import {
  COURSE_CODE_MAX_LENGTH,
  formatCourse,
  parseCourseCode,
  type CourseCode,
} from '@campus-books/common/course';
import type { LandingPage, LandingPageData } from '@campus-books/common/server-rendering';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database';
import { findCourseBooks } from './course-books';
import { findCourseRequiredBooks } from './required-books.repository';
import { pageDemand } from '../alerts/alerts.demand';

/** GET /api/course/{code}'s answer: the course's name and its books on campus. */
export async function courseAnswer(
  db: Db,
  course: CourseCode,
): Promise<{ success: true } & CourseAnswer> {
  return {
    success: true as const,
    subject: course.subject,
    subjectName: activeCampus().subjectName(course.subject) ?? null,
    courseNumber: course.courseNumber,
    label: formatCourse(course.subject, course.courseNumber),
    books: await findCourseBooks(db, course),
    requiredBooks: course.subject
      ? (
          await findCourseRequiredBooks(db, {
            subject: course.subject,
            courseNumber: course.courseNumber,
          })
        ).map(({ isbn, title, required }) => ({ isbn, title, required }))
      : [],
  };
}

/**
 * `/course/{code}`, rendered on the server (docs/decisions/012): the same answer as the API, or null
 * for an address that is not a course of this campus (the page asks the API and shows its message).
 */
export async function coursePageData(
  app: FastifyInstance,
  page: Extract<LandingPage, { kind: 'course' }>,
): Promise<LandingPageData | null> {
  const course = page.code.length <= COURSE_CODE_MAX_LENGTH ? parseCourseCode(page.code) : null;
  if (!course) return null;
  const answer = await courseAnswer(app.database.db, course);
  return {
    kind: 'course',
    course: JSON.parse(JSON.stringify(answer)) as typeof answer,
    demand: await pageDemand(app.database.db, answer),
  };
}
