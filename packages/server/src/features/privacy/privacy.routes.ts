import type { FastifyInstance } from 'fastify';
import { type PrivacySettings } from '@campus-books/common/privacy';
import { apiRoutes } from '@campus-books/common/api-routes';
import type { LandingPageData } from '@campus-books/common/server-rendering';
import { FAILED_JOBS_DAYS } from './retention';

/** The retention periods the /privacy page states: this installation's own. */
export function privacySettings(app: FastifyInstance): PrivacySettings {
  return {
    outboxDays: app.config.retention.outboxDays,
    searchTermsDays: app.config.retention.searchTermsDays,
    failedJobsDays: FAILED_JOBS_DAYS,
    attemptWindowMinutes: app.config.rateLimits.windowMs / 60_000,
  };
}

/** /privacy rendered on the server (docs/decisions/012) states what GET /api/privacy answers. */
export async function privacyPageData(app: FastifyInstance): Promise<LandingPageData> {
  return { kind: 'privacy', settings: privacySettings(app) };
}

/** GET /api/privacy: the retention periods the /privacy page states (public). */
export default async function privacyRoutes(app: FastifyInstance) {
  app.get(
    '/privacy',
    { schema: { response: { 200: apiRoutes['GET /api/privacy'].response } } },
    async (): Promise<PrivacySettings> => privacySettings(app),
  );
}
