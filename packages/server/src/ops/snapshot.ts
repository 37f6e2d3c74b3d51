import { sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { appliedMigrationTimes } from '../db/migrator';
import { rowsOf, type Executor } from '../db/rows';

/**
 * Tables of a schema (the default campus's `public`, or a campus's) in an order that inserts parents
 * before children (foreign keys), so a table added by a later migration is backed up without this
 * code knowing it.
 */
export async function tablesInRestoreOrder(db: Executor, schema = 'public'): Promise<string[]> {
  const tables = await rowsOf<{ name: string }>(
    db,
    sql`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = ${schema} AND c.relkind IN ('r', 'p') AND c.relname <> '__drizzle_migrations'
        ORDER BY c.relname`,
  );
  const edges = await rowsOf<{ child: string; parent: string }>(
    db,
    sql`SELECT ch.relname AS child, pa.relname AS parent FROM pg_constraint k
        JOIN pg_class ch ON ch.oid = k.conrelid JOIN pg_class pa ON pa.oid = k.confrelid
        JOIN pg_namespace n ON n.oid = ch.relnamespace
        WHERE k.contype = 'f' AND n.nspname = ${schema} AND ch.oid <> pa.oid`,
  );
  const ordered: string[] = [];
  const pending = new Set(tables.map((t) => t.name));
  while (pending.size > 0) {
    const ready = [...pending].filter(
      (t) => !edges.some((e) => e.child === t && pending.has(e.parent)),
    );
    if (ready.length === 0) throw new Error(`Circular foreign keys among ${[...pending]}`);
    for (const t of ready) {
      ordered.push(t);
      pending.delete(t);
    }
  }
  return ordered;
}

/** A table's columns, except generated ones (a restore cannot write them; they are recomputed). */
export async function columnsOf(db: Executor, table: string, schema = 'public'): Promise<string[]> {
  const rows = await rowsOf<{ name: string }>(
    db,
    sql`SELECT a.attname AS name FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = ${schema} AND c.relname = ${table} AND a.attnum > 0 AND NOT a.attisdropped
          AND a.attgenerated = ''
        ORDER BY a.attnum`,
  );
  return rows.map((r) => r.name);
}

/** Migrations recorded as applied in a schema's bookkeeping (db/migrator.ts). */
export async function appliedMigrations(db: Executor, schema = 'public') {
  const times = await appliedMigrationTimes(db, schema);
  return { migrations: times.length, lastMigrationAt: times.at(-1) ?? 0, times };
}

export interface TableSnapshot {
  name: string;
  columns: string[];
  /** Each row as PostgreSQL's own JSON text, so no value is converted on the way. */
  rows: string[];
}

export interface ImageState {
  id: string;
  status: string;
}

export interface DatabaseSnapshot {
  tables: TableSnapshot[];
  schema: { migrations: number; lastMigrationAt: number };
  listingsByStatus: Record<string, number>;
  images: ImageState[];
}

/**
 * Tables that triggers derive from the others (listing_words, migration 0004): left out of a backup,
 * and rebuilt as a restore inserts the rows they come from.
 */
export const DERIVED_TABLES: ReadonlySet<string> = new Set(['listing_words']);

/**
 * Tables of the running servers' coordination and caches (rate-limit counters, 0007; background jobs,
 * upload locks and the search caches' catalogue version, 0008; the book providers' answers, asked
 * again after a restore, 0011; sign-on's single-use values, 0019): left out of a backup, and ignored by a restore's check
 * that its target is empty. A restored installation schedules its recurring jobs again at start.
 */
export const OPERATIONAL_TABLES: ReadonlySet<string> = new Set([
  'rate_limits',
  'books',
  'jobs',
  'upload_locks',
  'catalogue_version',
  'sso_once',
]);

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/**
 * Every row of every table as of one moment: one REPEATABLE READ, READ ONLY transaction, so the
 * rows agree with each other (no listing whose owner is missing) while writes go on. On PGlite the
 * transaction holds the single connection for the few hundred milliseconds the reads take.
 */
export async function takeSnapshot(db: Db, schema = 'public'): Promise<DatabaseSnapshot> {
  const table = (name: string) => sql.raw(`${quote(schema)}.${quote(name)}`);
  return db.transaction(
    async (tx) => {
      const tables: TableSnapshot[] = [];
      for (const name of await tablesInRestoreOrder(tx, schema)) {
        if (DERIVED_TABLES.has(name) || OPERATIONAL_TABLES.has(name)) continue;
        const rows = await rowsOf<{ r: string }>(
          tx,
          sql`SELECT row_to_json(t)::text AS r FROM ${table(name)} t`,
        );
        const columns = await columnsOf(tx, name, schema);
        tables.push({ name, columns, rows: rows.map((x) => x.r) });
      }
      const statuses = await rowsOf<{ status: string; n: number }>(
        tx,
        sql`SELECT status, count(*)::int AS n FROM ${table('listings')} GROUP BY status`,
      );
      const images = await rowsOf<ImageState>(
        tx,
        sql`SELECT id::text AS id, status FROM ${table('images')} ORDER BY id`,
      );
      const { migrations, lastMigrationAt } = await appliedMigrations(tx, schema);
      return {
        tables,
        schema: { migrations, lastMigrationAt },
        listingsByStatus: Object.fromEntries(statuses.map((s) => [s.status, s.n])),
        images,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
