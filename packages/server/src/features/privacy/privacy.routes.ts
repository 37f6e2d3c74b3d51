import type { FastifyInstance } from 'fastify';
import { type PrivacySettings } from '@campus-books/common/privacy';
import { apiRoutes } from '@campus-books/common/api-routes';
import { FAILED_JOBS_DAYS } from './retention';

/** GET /api/privacy: the retention periods the /privacy page states (public). */
export default async function privacyRoutes(app: FastifyInstance) {
  app.get(
    '/privacy',
    { schema: { response: { 200: apiRoutes['GET /api/privacy'].response } } },
    async (): Promise<PrivacySettings> => ({
      outboxDays: app.config.retention.outboxDays,
      searchTermsDays: app.config.retention.searchTermsDays,
      failedJobsDays: FAILED_JOBS_DAYS,
    }),
  );
}
