import type { FastifyInstance } from 'fastify';
import type { PublicConfig } from '@campus-books/common/api';

/** GET /api/health (server and database up or down) and GET /api/config (rules for the web app). */
export default async function healthRoutes(app: FastifyInstance) {
  app.get('/health', async (_request, reply) => {
    let database: 'up' | 'down' = 'up';
    try {
      await app.database.ping();
    } catch (error) {
      app.log.warn({ err: error }, 'database ping failed');
      database = 'down';
    }
    const draining = app.lifecycle.draining;
    const ok = database === 'up' && !draining;
    return reply.status(ok ? 200 : 503).send({
      success: ok,
      status: ok ? 'up' : 'down',
      server: draining ? 'draining' : 'up',
      database,
      engine: app.database.engine,
    });
  });

  app.get('/config', async (): Promise<PublicConfig> => {
    const { config } = app;
    return {
      schoolEmailDomain: config.schoolEmailDomain,
      groupmeLinkPrefix: config.groupmeLinkPrefix,
      donationUrl: config.donationUrl,
      publicUrl: config.publicUrl,
    };
  });
}
