import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { notModifiedResponse, ReadyAnswer } from '../../lib/ready-answer';
import { findCourseTitlePrices } from './course-books';
import { keptUntilCatalogueChanges } from '../search/catalogue-kept';
import { courseAnswer } from './courses.service';

/** /api/course/{SUBJECT}-{number} (or /api/course/{number}): a course's books on campus. */
export default async function coursesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // The same answer for everyone (it reads only active and sold listings), asked by every student
  // of a course in the term's first days: kept until the catalogue changes, as bytes ready to send
  // (written once by the route's serializer, compressed once: lib/ready-answer.ts).
  const answers = keptUntilCatalogueChanges<ReadyAnswer>(app.listingCaches, {
    maxEntries: 2_000,
    ttlMs: 60_000,
    sizeOf: (ready) => ready.roomBytes,
  });
  app.get(
    '/:code',
    {
      schema: {
        params: apiRoutes['GET /api/course/:code'].params,
        response: {
          200: apiRoutes['GET /api/course/:code'].response,
          ...notModifiedResponse,
          ...errorResponses({ 400: 'Not a course of this campus' }),
        },
      },
    },
    async (request, reply) => {
      const course = request.params.code;
      const ready = await answers(`${course.subject ?? ''}-${course.courseNumber}`, async () => {
        // The route's zod serializer, which writes a string (JSON.stringify of the encoded answer).
        const json = reply.serialize(await courseAnswer(app.database.db, course)) as string;
        return new ReadyAnswer(json);
      });
      return ready.send(request, reply);
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
