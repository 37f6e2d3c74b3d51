import type { ClientBase, Pool, PoolClient, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { quoted } from './campus-schema';

/**
 * Which campus each pooled connection is pointed at now (its search path and role); a connection
 * never pointed is at the default campus's, `public` under the login role.
 */
const pointedAt = new WeakMap<ClientBase, string>();

/** The statements that point a connection at `schema`: its search path and the role owning it. */
export function pointingStatements(schema: string): string {
  return schema === 'public'
    ? 'RESET ROLE; SET search_path TO DEFAULT'
    : // public after the campus's own schema for the extensions' functions (pg_trgm), never tables:
      // the campus's role holds no right on public's (decision 024).
      `SET search_path TO ${quoted(schema)}, public; SET ROLE ${quoted(schema)}`;
}

/**
 * Points a connection at a campus's schema, only when it is pointed elsewhere (one round trip then).
 * PostgreSQL plans a prepared statement again when the search path it was planned under changes.
 */
export async function pointAt(client: ClientBase, schema: string): Promise<void> {
  if ((pointedAt.get(client) ?? 'public') === schema) return;
  pointedAt.delete(client);
  await client.query(pointingStatements(schema));
  pointedAt.set(client, schema);
}

/**
 * One campus's view of a shared pool: what Drizzle's node-postgres driver asks of a pool (`query`,
 * and `connect` for a transaction; it recognises a pool by its class's name), each connection taken
 * pointed at the campus first. Every campus on a PostgreSQL server shares its one set of pools, so
 * the connections are bounded whatever the number of campuses.
 */
export class CampusPool {
  constructor(
    readonly pool: Pool,
    readonly schema: string,
  ) {}

  async connect(): Promise<PoolClient> {
    const client = await this.pool.connect();
    try {
      await pointAt(client, this.schema);
    } catch (error) {
      // Half pointed (a missing role): the connection is closed, never handed to another campus.
      client.release(error as Error);
      throw error;
    }
    return client;
  }

  async query<R extends QueryResultRow = QueryResultRow>(
    config: string | QueryConfig,
    values?: unknown[],
  ): Promise<QueryResult<R>> {
    const client = await this.connect();
    try {
      return await client.query<R>(config, values);
    } finally {
      client.release();
    }
  }
}
