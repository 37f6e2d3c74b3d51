import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { findCourseTitlePrices } from './course-books';
import { keptUntilCatalogueChanges } from '../search/catalogue-kept';
import { courseAnswer } from './courses.service';

/** /api/course/{SUBJECT}-{number} (or /api/course/{number}): a course's books on campus. */
export default async function coursesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // The same answer for everyone (it reads only active and sold listings), asked by every student
  // of a course in the term's first days: kept until the catalogue changes.
  const answers = keptUntilCatalogueChanges<Awaited<ReturnType<typeof courseAnswer>>>(
    app.listingCaches,
    {
      maxEntries: 2_000,
      ttlMs: 60_000,
    },
  );
  app.get(
    '/:code',
    {
      schema: {
        params: apiRoutes['GET /api/course/:code'].params,
        response: {
          200: apiRoutes['GET /api/course/:code'].response,
          ...errorResponses({ 400: 'Not a course of this campus' }),
        },
      },
    },
    async (request) => {
      const course = request.params.code;
      return answers(`${course.subject ?? ''}-${course.courseNumber}`, () =>
        courseAnswer(app.database.db, course),
      );
    },
  );

  // The create form's price hint before an ISBN is known: the same title in the same course.
  app.get(
    '/:code/prices',
    {
      schema: {
        params: apiRoutes['GET /api/course/:code/prices'].params,
        querystring: apiRoutes['GET /api/course/:code/prices'].query,
        response: {
          200: apiRoutes['GET /api/course/:code/prices'].response,
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
