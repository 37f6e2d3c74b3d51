import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import {
  courseAnswerSchema,
  priceSummarySchema,
  type CourseAnswer,
} from '@campus-books/common/book.schemas';
import { subjectName } from '@campus-books/common/campus';
import { formatCourse, parseCourseCode } from '@campus-books/common/course';
import { findCourseBooks, findCourseTitlePrices } from './course-books';

const courseParams = z.object({
  code: z
    .string()
    .max(20, 'is not a course: use a subject and number such as ECON-101')
    .transform((code, ctx) => {
      const course = parseCourseCode(code);
      if (course) return course;
      ctx.addIssue({
        code: 'custom',
        message: /^[A-Za-z]{2,5}[\s_-]*\d/.test(code.trim())
          ? 'is not a subject of this campus'
          : 'is not a course: use a subject and number such as ECON-101',
      });
      return z.NEVER;
    }),
});

/** /api/course/{SUBJECT}-{number} (or /api/course/{number}): a course's books on campus. */
export default async function coursesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/:code',
    {
      schema: {
        params: courseParams,
        response: {
          200: courseAnswerSchema,
          ...errorResponses({ 400: 'Not a course of this campus' }),
        },
      },
    },
    async (request): Promise<{ success: true } & CourseAnswer> => {
      const course = request.params.code;
      return {
        success: true as const,
        subject: course.subject,
        subjectName: subjectName(course.subject) ?? null,
        courseNumber: course.courseNumber,
        label: formatCourse(course.subject, course.courseNumber),
        books: await findCourseBooks(app.database.db, course),
      };
    },
  );

  // The create form's price hint before an ISBN is known: the same title in the same course.
  app.get(
    '/:code/prices',
    {
      schema: {
        params: courseParams,
        querystring: z.strictObject({
          title: z.string().trim().min(1, 'is required').max(100, 'is too long'),
        }),
        response: {
          200: priceSummarySchema.extend({ success: z.literal(true) }),
          ...errorResponses({ 400: 'Not a course of this campus, or no title' }),
        },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await findCourseTitlePrices(app.database.db, request.params.code, request.query.title)),
    }),
  );
}
