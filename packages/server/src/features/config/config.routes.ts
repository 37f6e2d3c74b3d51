import type { FastifyInstance } from 'fastify';
import { type PublicConfig } from '@campus-books/common/api';
import type { CampusConfig } from '@campus-books/common/campus-config';
import { apiRoutes } from '@campus-books/common/api-routes';

/** The campus rules the web app validates with and the links it shows (also in a rendered page). */
export function publicConfig(app: FastifyInstance): PublicConfig {
  const { config } = app;
  return {
    schoolEmailDomain: config.schoolEmailDomain,
    partnerEmailDomains: app.consortium.partnerEmailDomains(),
    groupmeLinkPrefix: config.groupmeLinkPrefix,
    donationUrl: config.donationUrl,
    publicUrl: config.publicUrl,
    sso: config.sso ? { name: config.sso.name, protocol: config.sso.protocol } : null,
    passwordSignUp: config.passwordSignUp,
  };
}

/** GET /api/config and GET /api/campus. */
export default async function configRoutes(app: FastifyInstance) {
  // The campus served, read once at start (a restart changes it): what the web app shows and
  // validates with, and what another client needs to name schools, subjects and meetup spots.
  app.get(
    '/campus',
    { schema: { response: { 200: apiRoutes['GET /api/campus'].response } } },
    async (): Promise<CampusConfig> => app.config.campus,
  );
  app.get(
    '/config',
    { schema: { response: { 200: apiRoutes['GET /api/config'].response } } },
    async (): Promise<PublicConfig> => publicConfig(app),
  );
}
