import type { FastifyInstance } from 'fastify';
import { PRODUCT_VERSION } from '@campus-books/common/version';
import { z } from 'zod';

const healthAnswer = z.object({
  success: z.boolean(),
  status: z.enum(['up', 'down']),
  server: z.enum(['up', 'draining']),
  database: z.enum(['up', 'down']),
  engine: z.enum(['pglite', 'postgres']),
  version: z.string().describe("The release's version (CHANGELOG.md)"),
});

/** GET /api/health: the server and the database up or down (load balancers, monitoring). */
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
      version: PRODUCT_VERSION,
    });
  });
}
