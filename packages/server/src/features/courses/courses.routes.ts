import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import { courseAnswerSchema, priceSummarySchema } from '@campus-books/common/book.schemas';
import { COURSE_CODE_MAX_LENGTH, parseCourseCode } from '@campus-books/common/course';
import { findCourseTitlePrices } from './course-books';
import { courseAnswer } from './courses.service';

const courseParams = z.object({
  code: z
    .string()
    .max(COURSE_CODE_MAX_LENGTH, 'is not a course: use a subject and number such as ECON-101')
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
    async (request) => courseAnswer(app, request.params.code),
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
