import { sql } from 'drizzle-orm';
import type { Db } from '../db/db-type';
import { rowsOf } from '../db/rows';
import { CAMPUS_KEY, quoted } from './campus-schema';

/**
 * The catalogue's NOTIFY per campus (decision 024). Migration 0008's trigger (0032's since) bumps
 * the one-row `catalogue_version` of its schema and sends `NOTIFY catalogue, '<version>'` at the commit, and the
 * search's caches (features/search/listing-caches.ts) empty on it. In a campus's schema the same
 * function is replaced at start to send `'<schema>:<version>'` on the same channel: one LISTEN
 * hears every campus's changes, and a write on one campus empties that campus's caches only.
 */
const FUNCTION = 'catalogue_version_bump';

function bodyIn(schema: string): string {
  return `
DECLARE
  v bigint;
BEGIN
  UPDATE ${quoted(schema)}.catalogue_version
     SET version = version + 1,
         shrink_version = shrink_version + CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE 1 END
   WHERE id = 1 RETURNING version INTO v;
  PERFORM pg_notify('catalogue', '${schema}:' || coalesce(v, 0)::text);
  RETURN NULL;
END
`;
}

/**
 * Makes a campus schema's catalogue trigger name its campus (one read when it already does), and
 * lets the login role read its version (campus-versions.ts). Run as the campus's role.
 */
export async function ensureCatalogueNotify(db: Db, schema: string): Promise<void> {
  if (schema === 'public') return;
  await allowVersionReads(db, schema);
  const body = bodyIn(schema);
  const [current] = await rowsOf<{ body: string | null }>(
    db,
    sql`SELECT prosrc AS body FROM pg_proc
         WHERE proname = ${FUNCTION} AND pronamespace = to_regnamespace(${quoted(schema)})`,
  );
  if (current?.body === body) return;
  await db.execute(
    sql.raw(
      `CREATE OR REPLACE FUNCTION ${quoted(schema)}.${FUNCTION}() RETURNS trigger ` +
        `LANGUAGE plpgsql AS $$${body}$$`,
    ),
  );
}

/**
 * Lets the login role read the campus's `catalogue_version`, and nothing else of it: run as the
 * campus's role, which owns its schema. On PostgreSQL 16 and later the login role does not inherit
 * a campus's rights (campus-provision.ts); a version number is no student's data. One read when the
 * grant is there (always for a superuser).
 */
async function allowVersionReads(db: Db, schema: string): Promise<void> {
  const table = `${quoted(schema)}.catalogue_version`;
  const [granted] = await rowsOf<{ ok: boolean }>(
    db,
    sql`SELECT has_schema_privilege(session_user, ${schema}, 'USAGE')
               AND has_table_privilege(session_user, ${table}, 'SELECT') AS ok`,
  );
  if (granted?.ok) return;
  await db.execute(sql.raw(`GRANT USAGE ON SCHEMA ${quoted(schema)} TO SESSION_USER`));
  await db.execute(sql.raw(`GRANT SELECT ON ${table} TO SESSION_USER`));
}

/**
 * What a catalogue notification says: the campus whose catalogue moved ('' the default campus, or a
 * single-campus installation) and to what version; null for a payload of no such form.
 */
export function catalogueNotification(payload: string): { scope: string; version: number } | null {
  const colon = payload.lastIndexOf(':');
  const scope = colon < 0 ? '' : payload.slice(0, colon);
  const version = Number(payload.slice(colon + 1));
  if (!Number.isSafeInteger(version)) return null;
  const isCampus = scope.startsWith('campus_') && CAMPUS_KEY.test(scope.slice('campus_'.length));
  if (scope !== '' && !isCampus) return null;
  return { scope, version };
}
