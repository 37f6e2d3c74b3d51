import pg from 'pg';
import type { CampusConfig } from '@campus-books/common/campus-config';
import {
  ensureDirectory,
  registerCampus,
} from '../../packages/server/src/campuses/campus-directory';
import { pointAt } from '../../packages/server/src/campuses/campus-pool';
import {
  createCampusSchema,
  migrateCampus,
} from '../../packages/server/src/campuses/campus-provision';
import { campusSchemaOf, quoted } from '../../packages/server/src/campuses/campus-schema';

/**
 * The many-campus bench's campuses (issue 45, decision 024): keys c001…cNNN, served at
 * c001.bench.example…, each a schema of one scratch database holding a copy of the catalogue the
 * bench seeded into its `public` schema (the single campus of the same run).
 */
export const benchCampusKeys = (count: number): string[] => {
  const width = Math.max(3, String(count).length);
  return Array.from({ length: count }, (_, i) => `c${String(i + 1).padStart(width, '0')}`);
};

export const benchCampusHost = (key: string): string => `${key}.bench.example`;

/** Tables the copy leaves alone: the migrator's own bookkeeping, which the campus has already. */
const NOT_COPIED = new Set(['__drizzle_migrations']);

/** The pg client type the server's code is typed with (its own copy of the types). */
type ServerClient = Parameters<typeof createCampusSchema>[0];

async function connected(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/**
 * Copies every table of `public` into a migrated campus schema, rows as they are (the schemas are
 * separate: ids need not differ), with triggers and foreign-key checks off for the copy (the rows
 * are consistent already; the listing JSON is copied, not recomputed: every bench campus has the
 * same campus file), then moves each sequence past its table's largest value and vacuums and
 * analyzes the schema, as the seed does.
 */
export async function copyPublicInto(client: pg.ClientBase, schema: string): Promise<void> {
  const { rows: tables } = await client.query<{ table: string }>(
    `SELECT p.tablename AS table FROM pg_tables p
       JOIN pg_tables c ON c.tablename = p.tablename AND c.schemaname = $1
      WHERE p.schemaname = 'public' ORDER BY p.tablename`,
    [schema],
  );
  const copied = tables.map((t) => t.table).filter((t) => !NOT_COPIED.has(t));
  await client.query('BEGIN');
  try {
    await client.query('SET LOCAL session_replication_role = replica');
    // Rows the migrations wrote (the catalogue's version, …) are in public too: the copy replaces them.
    if (copied.length > 0)
      await client.query(
        `TRUNCATE ${copied.map((t) => `${quoted(schema)}.${quoted(t)}`).join(', ')}`,
      );
    for (const table of copied) {
      const { rows: columns } = await client.query<{ column: string }>(
        `SELECT column_name AS column FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER'
          ORDER BY ordinal_position`,
        [table],
      );
      const list = columns.map((c) => quoted(c.column)).join(', ');
      await client.query(
        `INSERT INTO ${quoted(schema)}.${quoted(table)} (${list}) OVERRIDING SYSTEM VALUE
         SELECT ${list} FROM public.${quoted(table)}`,
      );
    }
    const { rows: sequences } = await client.query<{ table: string; column: string; seq: string }>(
      `SELECT c.table_name AS table, c.column_name AS column,
              pg_get_serial_sequence(format('%I.%I', c.table_schema, c.table_name), c.column_name) AS seq
         FROM information_schema.columns c
        WHERE c.table_schema = $1
          AND pg_get_serial_sequence(format('%I.%I', c.table_schema, c.table_name), c.column_name) IS NOT NULL`,
      [schema],
    );
    for (const s of sequences) {
      await client.query(
        `SELECT setval($1, COALESCE((SELECT max(${quoted(s.column)}) FROM ${quoted(schema)}.${quoted(s.table)}), 0) + 1, false)`,
        [s.seq],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
  if (copied.length > 0) {
    await client.query(
      `VACUUM (ANALYZE) ${copied.map((t) => `${quoted(schema)}.${quoted(t)}`).join(', ')}`,
    );
  }
}

/**
 * Makes each campus's role and schema in the scratch database at `url`, migrates it as `campus add`
 * does, and copies the seeded catalogue into it; nothing is registered yet (registerBenchCampuses).
 */
export async function provisionBenchCampuses(
  url: string,
  keys: readonly string[],
  config: CampusConfig,
  progress: (done: number) => void = () => {},
): Promise<void> {
  const client = (await connected(url)) as unknown as ServerClient & pg.Client;
  try {
    for (const [i, key] of keys.entries()) {
      const schema = campusSchemaOf(key);
      await createCampusSchema(client, schema);
      await migrateCampus(client, { key, schema, config });
      await pointAt(client, 'public');
      await copyPublicInto(client, schema);
      progress(i + 1);
    }
  } finally {
    await client.end();
  }
}

/** Registers campuses in the scratch database's directory; app servers started after serve them. */
export async function registerBenchCampuses(
  url: string,
  keys: readonly string[],
  config: CampusConfig,
): Promise<void> {
  const client = (await connected(url)) as unknown as ServerClient & pg.Client;
  try {
    await ensureDirectory(client);
    for (const key of keys) {
      await registerCampus(client, { key, hosts: [benchCampusHost(key)], config, server: null });
    }
  } finally {
    await client.end();
  }
}

/**
 * Drops the campuses' roles (they belong to the whole PostgreSQL server and outlive the scratch
 * database); a role another database still uses (a run beside this one) is left.
 */
export async function dropBenchCampusRoles(
  postgresUrl: string,
  keys: readonly string[],
): Promise<void> {
  const client = await connected(postgresUrl);
  try {
    for (const key of keys) {
      await client.query(`DROP ROLE IF EXISTS ${quoted(campusSchemaOf(key))}`).catch(() => {});
    }
  } finally {
    await client.end();
  }
}

/** The connections of the app server named `applicationName` (PGAPPNAME) to the database, as PostgreSQL counts them: LISTEN ones (their last statement a LISTEN or a fence's NOTIFY, db/notifications.ts) apart. */
export async function serverConnections(
  postgresUrl: string,
  database: string,
  applicationName: string,
): Promise<{ pooled: number; listening: number }> {
  const client = await connected(postgresUrl);
  try {
    const { rows } = await client.query<{ pooled: string; listening: string }>(
      `SELECT count(*) FILTER (WHERE NOT listening) AS pooled,
              count(*) FILTER (WHERE listening) AS listening
         FROM (SELECT query ILIKE 'LISTEN%' OR query ILIKE 'NOTIFY "heard_%' AS listening, *
                  FROM pg_stat_activity) AS activity
        WHERE datname = $1 AND application_name = $2 AND pid <> pg_backend_pid()
          AND backend_type = 'client backend'`,
      [database, applicationName],
    );
    return { pooled: Number(rows[0]!.pooled), listening: Number(rows[0]!.listening) };
  } finally {
    await client.end();
  }
}
