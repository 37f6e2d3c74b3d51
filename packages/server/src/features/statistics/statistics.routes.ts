import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@campus-books/common/api';
import { apiRoutes } from '@campus-books/common/api-routes';
import { moderatorHooks } from '../moderation/moderators';
import { operatorStatistics } from './statistics.service';
import { REQUIRE_USER_ERRORS } from '../../plugins/sessions';

/** GET /api/statistics: the campus's weekly aggregate counts, for moderators (403 for anyone else). */
export default async function statisticsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '',
    {
      ...moderatorHooks(app),
      schema: {
        querystring: apiRoutes['GET /api/statistics'].query,
        response: {
          200: apiRoutes['GET /api/statistics'].response,
          ...errorResponses({
            400: 'weeks is not a whole number from 1 to 52',
            ...REQUIRE_USER_ERRORS,
            403: 'Not a campus moderator',
          }),
        },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      // This server's latest zero-result searches first (the others write theirs every minute).
      await app.searchMisses.flush();
      return operatorStatistics(
        { db: app.database.db, now: () => app.jobs.now() },
        request.query.weeks,
      );
    },
  );
}
