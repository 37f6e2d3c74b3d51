import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { publicConfigSchema, type PublicConfig } from '@campus-books/common/api';

const healthAnswer = z.object({
  success: z.boolean(),
  status: z.enum(['up', 'down']),
  server: z.enum(['up', 'draining']),
  database: z.enum(['up', 'down']),
  engine: z.enum(['pglite', 'postgres']),
});

/** GET /api/health (server and database up or down) and GET /api/config (rules for the web app). */
export default async function healthRoutes(app: FastifyInstance) {
  const healthSchema = {
    response: {
      200: healthAnswer.describe('Up'),
      503: healthAnswer.describe('The database is down, or the server is draining (SIGTERM)'),
    },
  };
  app.get('/health', { schema: healthSchema }, async (_request, reply) => {
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

  app.get(
    '/config',
    { schema: { response: { 200: publicConfigSchema } } },
    async (): Promise<PublicConfig> => {
      const { config } = app;
      return {
        schoolEmailDomain: config.schoolEmailDomain,
        groupmeLinkPrefix: config.groupmeLinkPrefix,
        donationUrl: config.donationUrl,
        publicUrl: config.publicUrl,
      };
    },
  );
}
