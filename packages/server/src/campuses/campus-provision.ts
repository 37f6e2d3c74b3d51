import { drizzle } from 'drizzle-orm/node-postgres';
import type { ClientBase } from 'pg';
import { ensureDealTriggers } from '../deal/deal-triggers';
import { MIGRATION_LOCK } from '../db/database';
import type { Db } from '../db/db-type';
import { ensureListingJson } from '../db/listing-json-trigger';
import { applyMigrations } from '../db/migrator';
import * as dbSchema from '../db/schema';
import { ensureCatalogueNotify } from './campus-catalogue';
import { runInCampus, type CampusWork } from './campus-context';
import { pointAt } from './campus-pool';
import { quoted } from './campus-schema';

/** PostgreSQL's codes for a role created by someone else meanwhile. */
const DUPLICATE_OBJECT = '42710';
const UNIQUE_VIOLATION = '23505';

/**
 * Creates a campus's role and schema on its PostgreSQL server, if missing (decision 024): the role
 * logs in never and owns its schema only; the login role may SET ROLE to it (on PostgreSQL 16 and
 * later without inheriting its rights). pg_trgm stays in `public`, where the search path finds it.
 */
export async function createCampusSchema(client: ClientBase, schema: string): Promise<void> {
  const name = quoted(schema);
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
  const { rows: roles } = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [schema]);
  if (roles.length === 0) {
    // Roles belong to the whole PostgreSQL server, not to one database: an installation adding the
    // same campus key to another database at the same moment may create it first.
    await client.query(`CREATE ROLE ${name} NOLOGIN`).catch((error: unknown) => {
      const code = (error as { code?: string }).code;
      if (code !== DUPLICATE_OBJECT && code !== UNIQUE_VIOLATION) throw error;
    });
  }
  const { rows } = await client.query<{ rolsuper: boolean; version: number }>(
    `SELECT rolsuper, current_setting('server_version_num')::int AS version
       FROM pg_roles WHERE rolname = current_user`,
  );
  const me = rows[0]!;
  if (!me.rolsuper) {
    await client.query(
      me.version >= 160000
        ? `GRANT ${name} TO CURRENT_USER WITH INHERIT FALSE, SET TRUE`
        : `GRANT ${name} TO CURRENT_USER`,
    );
  }
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${name} AUTHORIZATION ${name}`);
}

/**
 * Applies this code's migrations to a campus's schema, as its role (which so owns every table), and
 * brings its listing JSON and deal triggers up to this code, under the migrations' lock: the same
 * start-up path as the default campus's (db/database.ts), its catalogue's NOTIFY naming it
 * (campus-catalogue.ts). A migrated schema reads its bookkeeping, two comments and one function's
 * text and does nothing more. Returns the migrations it ran.
 */
export async function migrateCampus(
  client: ClientBase,
  campus: Pick<CampusWork, 'key' | 'schema' | 'config'>,
): Promise<string[]> {
  await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
  try {
    await pointAt(client, campus.schema);
    const db = drizzle(client as never, { schema: dbSchema }) as unknown as Db;
    // The listing JSON names the campus's schools: it is written as this campus's.
    const work = { ...campus, handles: { db, customPlanDb: db, genericPlanDb: db } };
    return await runInCampus(work, async () => {
      const ran = await db.transaction((tx) => applyMigrations(tx, undefined, campus.schema));
      await ensureListingJson(db, campus.schema);
      await ensureDealTriggers(db, campus.schema);
      await ensureCatalogueNotify(db, campus.schema);
      return ran;
    });
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => {});
  }
}
