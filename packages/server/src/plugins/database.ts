import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/database';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
  }
}

/** Exposes the opened database as `app.database`; the owner of the handle closes it. */
export default fp(
  async function databasePlugin(app: FastifyInstance, options: { database: Database }) {
    app.decorate('database', options.database);
  },
  { name: 'database' },
);
