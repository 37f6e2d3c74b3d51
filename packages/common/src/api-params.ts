import { z } from 'zod';
import { activeCampus } from './active-campus';
import { isbnSchema } from './book.schemas';
import { COURSE_CODE_MAX_LENGTH, parseCourseCode } from './course';

/**
 * Path parameters and query strings of the route table (api-routes.ts): shared by several routes,
 * or holding a rule of their own.
 */

export const idParams = z.object({ id: z.string() });
export const listingParams = z.object({ listingId: z.string() });
export const userParams = z.object({ userId: z.string() });
export const offerParams = z.object({ id: z.string(), offerId: z.string() });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const inboxQuery = z.strictObject(
  { listingId: z.string().regex(UUID, 'is not a listing id').optional() },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'is not a parameter' : undefined) },
);

export const userIdParams = z.object({ id: z.uuid({ error: 'must be a user id' }) });
export const isbnParams = z.object({ isbn: isbnSchema });
/** "…such as HIST-101": the example is the campus's first subject, read when a code is refused. */
const notACourse = () =>
  `is not a course: use a subject and number such as ${activeCampus().subjects[0]?.code ?? 'ECON'}-101`;

export const courseParams = z.object({
  code: z
    .string()
    .max(COURSE_CODE_MAX_LENGTH, { error: notACourse })
    .transform((code, ctx) => {
      const course = parseCourseCode(code);
      if (course) return course;
      ctx.addIssue({
        code: 'custom',
        message: /^[A-Za-z]{2,5}[\s_-]*\d/.test(code.trim())
          ? 'is not a subject of this campus'
          : notACourse(),
      });
      return z.NEVER;
    }),
});
