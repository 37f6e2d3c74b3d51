import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/database';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
  }
}

const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * What autovacuum does on a PostgreSQL server, for the embedded engine, which runs none: reclaim the
 * space of updated and deleted rows, keep the visibility map that index-only scans need (a deep
 * search page), and refresh the statistics the planner chooses indexes by (how common a title word
 * is). A few hundred milliseconds for 10,000 listings.
 */
export async function maintainEmbeddedDatabase(database: Database): Promise<void> {
  await database.db.execute(sql`VACUUM (ANALYZE)`);
}

/**
 * Exposes the opened database as `app.database`; the owner of the handle closes it. On PGlite it
 * also runs the maintenance above every hour while the server runs.
 */
export default fp(
  async function databasePlugin(app: FastifyInstance, options: { database: Database }) {
    app.decorate('database', options.database);
    if (options.database.engine !== 'pglite') return;
    const timer = setInterval(() => {
      const started = performance.now();
      maintainEmbeddedDatabase(options.database).then(
        () =>
          app.log.info(
            { ms: Math.round(performance.now() - started) },
            'database maintenance done',
          ),
        (error: unknown) => app.log.error({ err: error }, 'database maintenance failed'),
      );
    }, MAINTENANCE_INTERVAL_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'database' },
);
