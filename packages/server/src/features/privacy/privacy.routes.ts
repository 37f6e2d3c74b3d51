import type { FastifyInstance } from 'fastify';
import { privacySettingsSchema, type PrivacySettings } from '@campus-books/common/privacy';
import { FAILED_JOBS_DAYS } from './retention';

/** GET /api/privacy: the retention periods the /privacy page states (public). */
export default async function privacyRoutes(app: FastifyInstance) {
  app.get(
    '/privacy',
    { schema: { response: { 200: privacySettingsSchema } } },
    async (): Promise<PrivacySettings> => ({
      outboxDays: app.config.retention.outboxDays,
      searchTermsDays: app.config.retention.searchTermsDays,
      failedJobsDays: FAILED_JOBS_DAYS,
    }),
  );
}
