import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool } from 'pg';
import { ensureDealTriggers } from '../deal/deal-triggers';
import { lockDataDir } from './data-dir-lock';
import type { Db } from './db-type';
import { ensureListingJson } from './listing-json-trigger';
import { applyMigrations } from './migrator';
import { withParsersKept } from './pglite-parsers';
import { PgNotificationListener, type NotificationHandler, type Unlisten } from './notifications';
import * as schema from './schema';

export type { Db } from './db-type';

/** One handle whatever the engine: the rest of the server only sees `db`. */
export interface Database {
  engine: 'pglite' | 'postgres';
  db: Db;
  /**
   * The same database through connections that plan every statement with its values, never with a
   * plan made once for any value (PostgreSQL: a pool of its own with plan_cache_mode =
   * force_custom_plan), for statements whose best plan depends on them: a search for a common word
   * walks the date index, for a rare one the GIN index. On `db`, PostgreSQL's default mode may, after
   * five runs, keep one plan for all values (db/prepared.test.ts). PGlite: `db` itself.
   */
  customPlanDb: Db;
  /**
   * The same database through connections that plan each statement once, for any value
   * (plan_cache_mode = force_generic_plan), for the search statements whose best plan is the same
   * for every value and costs more to make than to run: the unfiltered search's later pages (on
   * `db`, PostgreSQL estimated an unknown OFFSET at a tenth of the table and so planned a
   * startIndex=900 page again on every run, 0.2 ms), a book's ISBN. PGlite: `db` itself.
   */
  genericPlanDb: Db;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /**
   * LISTEN on a channel: `onNotify` gets each NOTIFY's payload, once its transaction committed. On
   * PostgreSQL a dedicated connection that reconnects by itself; `onReconnect` then tells that
   * notifications may have been missed. PGlite delivers the notifications of its one process.
   */
  listen(
    channel: string,
    onNotify: NotificationHandler,
    onReconnect?: () => void,
  ): Promise<Unlisten>;
  /**
   * PostgreSQL: resolves once every notification of a transaction that committed before the call
   * has been handed to its `listen` handlers (db/notifications.ts, a fence on the LISTEN
   * connection); fails while that connection is down. Absent on PGlite, whose one process hands a
   * notification over before the writing statement's promise resolves.
   */
  heard?: () => Promise<void>;
  close(): Promise<void>;
  /**
   * Each connection pool's use now (PostgreSQL: the three pools; PGlite has none, one in-process
   * connection whose queue is not observable), for the metrics (plugins/metrics.ts).
   */
  poolStats?(): PoolStats[];
  /**
   * PostgreSQL: the three pools behind `db`, `customPlanDb` and `genericPlanDb`, which the campuses
   * of a many-campus installation share (campuses/campus-pool.ts, decision 024).
   */
  pools?: { main: Pool; customPlan: Pool; genericPlan: Pool };
}

export interface PoolStats {
  pool: 'main' | 'custom_plan' | 'generic_plan';
  max: number;
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

export { MIGRATIONS_FOLDER } from './migrator';

/** Held while migrating (PostgreSQL), so servers starting together and a restore take turns. */
export const MIGRATION_LOCK = 72707369;

export type DatabaseOptions =
  | { engine: 'postgres'; url: string; poolSize?: number; migrate?: boolean }
  /** `dataDir` undefined means in memory; `loadFrom` starts from a dump (tests). */
  | { engine: 'pglite'; dataDir?: string; loadFrom?: Blob; lock?: boolean; migrate?: boolean };

/**
 * The start-up path: refuses a database a newer release migrated (NewerSchemaError), then applies
 * the pending migrations in one transaction and brings the listings' stored answers and the deal's
 * triggers up to this code.
 */
async function migrateOnOpen(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await applyMigrations(tx);
  });
  await ensureListingJson(db);
  await ensureDealTriggers(db);
}

/**
 * A pool's connection settings sending `option` among the server options of its start-up packet
 * (pg's `options`). The connection string's own parameters win over pg's other settings, so when
 * it names `options` itself, `option` is added after them there; a string that names them but is
 * no URL by WHATWG's rules (an empty host: `postgres://u@/db?host=/run/postgresql`) keeps its own,
 * and the server's default for `option`.
 */
export function withStartupOption(
  url: string,
  option: string,
): { connectionString: string; options?: string } {
  if (!/[?&]options=/.test(url)) return { connectionString: url, options: option };
  try {
    const parsed = new URL(url);
    parsed.searchParams.set('options', `${parsed.searchParams.get('options')} ${option}`);
    return { connectionString: parsed.toString() };
  } catch {
    return { connectionString: url };
  }
}

/** Each engine's driver is imported only when it is used: the other one would only slow start-up. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.engine === 'postgres' ? openPostgres(options) : openPglite(options);
}

async function openPostgres(options: {
  url: string;
  poolSize?: number;
  migrate?: boolean;
}): Promise<Database> {
  const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
  ]);
  // poolSize connections in all, a third for each planning mode (the searches) and the rest for
  // `db`: ten each by default. Fewer per pool cost the server CPU: its answers then come back in
  // smaller batches (the unfiltered search at 50 connections: 0.27 ms a search with 5, 0.24 with 10).
  // Each mode comes with the connection (its start-up packet's options, as `psql "options=-c …"`
  // sends them): in effect for its first statement, with no statement of its own. (A SET run on the
  // pool's 'connect' had the pool hand the connection to a waiting query while the SET still ran.)
  const size = options.poolSize ?? 30;
  const share = Math.max(1, Math.floor(size / 3));
  const openPool = (max: number, planCacheMode?: 'force_custom_plan' | 'force_generic_plan') => {
    const pool = new pg.Pool({
      ...(planCacheMode
        ? withStartupOption(options.url, `-c plan_cache_mode=${planCacheMode}`)
        : { connectionString: options.url }),
      max: Math.max(1, max),
      connectionTimeoutMillis: 5000,
    });
    // A pool error (server restart) must not crash the process; queries report it instead.
    pool.on('error', () => {});
    return pool;
  };
  const pool = openPool(size - 2 * share);
  const customPlanPool = openPool(share, 'force_custom_plan');
  const genericPlanPool = openPool(share, 'force_generic_plan');
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const customPlanDb = drizzlePg(customPlanPool, { schema }) as unknown as Db;
  const genericPlanDb = drizzlePg(genericPlanPool, { schema }) as unknown as Db;
  if (options.migrate !== false) {
    try {
      const client = await pool.connect();
      try {
        // Several app servers may start at once: one migrates, the others wait.
        await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
        await migrateOnOpen(drizzlePg(client, { schema }) as unknown as Db);
      } finally {
        await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => {});
        client.release();
      }
    } catch (error) {
      // A refused start closes what it opened (a process that goes on, e.g. a test, keeps no pool).
      await Promise.all([pool.end(), customPlanPool.end(), genericPlanPool.end()]).catch(() => {});
      throw error;
    }
  }
  const listener = new PgNotificationListener(() => {
    const client = new pg.Client({ connectionString: options.url, connectionTimeoutMillis: 5000 });
    return client;
  });
  return {
    engine: 'postgres',
    db,
    customPlanDb,
    genericPlanDb,
    ping: async () => {
      await pool.query('SELECT 1');
    },
    listen: (channel, onNotify, onReconnect) => listener.listen(channel, onNotify, onReconnect),
    heard: listener.heard,
    pools: { main: pool, customPlan: customPlanPool, genericPlan: genericPlanPool },
    close: async () => {
      await listener.close();
      await Promise.all([pool.end(), customPlanPool.end(), genericPlanPool.end()]);
    },
    poolStats: () =>
      (
        [
          ['main', pool],
          ['custom_plan', customPlanPool],
          ['generic_plan', genericPlanPool],
        ] as const
      ).map(([name, p]) => ({
        pool: name,
        max: p.options.max,
        total: p.totalCount,
        idle: p.idleCount,
        waiting: p.waitingCount,
      })),
  };
}

async function openPglite(options: {
  dataDir?: string;
  loadFrom?: Blob;
  lock?: boolean;
  migrate?: boolean;
}): Promise<Database> {
  const unlock =
    options.dataDir && options.lock !== false
      ? lockDataDir(path.dirname(options.dataDir))
      : () => {};
  try {
    const [{ PGlite }, { pg_trgm }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
    ]);
    const client = await PGlite.create({
      dataDir: options.dataDir,
      loadDataDir: options.loadFrom,
      extensions: { pg_trgm },
    });
    return await pgliteDatabase(client, {
      migrate: options.migrate !== false,
      close: async () => {
        try {
          await client.close();
        } finally {
          unlock();
        }
      },
    });
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * The handle on an open PGlite client (openDatabase's, or one a test suite lends to file after
 * file, test/pglite-pool.ts); `close` is the owner's. A failed migration closes the client.
 */
export async function pgliteDatabase(
  client: PGlite,
  options: { migrate: boolean; close(): Promise<void> },
): Promise<Database> {
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
  const db = drizzlePglite(withParsersKept(client), { schema }) as unknown as Db;
  if (options.migrate) {
    await migrateOnOpen(db).catch(async (error: unknown) => {
      await client.close().catch(() => {});
      throw error;
    });
  }
  return {
    engine: 'pglite',
    db,
    customPlanDb: db,
    genericPlanDb: db,
    ping: async () => {
      await db.execute(sql`SELECT 1`);
    },
    listen: async (channel, onNotify) => {
      const unlisten = await client.listen(channel, onNotify);
      return () => unlisten();
    },
    close: options.close,
  };
}
