import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import { migrationStatementIn, quoted } from '../campuses/campus-schema';
import { rowsOf, type Executor } from './rows';

export const MIGRATIONS_FOLDER = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'migrations',
);

/**
 * The schema's migrations, applied the way drizzle-kit's migrator applies them (its files, its
 * journal, its bookkeeping table `drizzle.__drizzle_migrations`, keyed by the journal's `when`), with
 * two things it lacks: applying only up to a level (a restore loads an older archive's rows at the
 * archive's level, then runs the rest: docs/decisions/004-backup-format.md), and refusing a database
 * that a newer release migrated further than this code knows.
 *
 * A migration's hash is recorded, as drizzle records it, but never compared: an applied migration is
 * never run again, so correcting a migration's data step for the databases that have not run it yet
 * (0018) leaves the others as they are (docs/operations.md, "Upgrades").
 */
export interface Migration {
  /** The file's name without `.sql`, e.g. `0018_alert-duplicates`. */
  tag: string;
  /** The journal's `when`: what the bookkeeping table records as `created_at`. */
  createdAt: number;
  statements: string[];
  hash: string;
}

let known: Migration[] | undefined;

/** This code's migrations, oldest first. */
export function knownMigrations(): Migration[] {
  if (!known) {
    const files: MigrationMeta[] = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
    const journal = readJournalTags();
    known = files.map((m, i) => ({
      tag: journal[i] ?? String(i).padStart(4, '0'),
      createdAt: m.folderMillis,
      statements: m.sql,
      hash: m.hash,
    }));
  }
  return known;
}

function readJournalTags(): string[] {
  // readMigrationFiles read the same journal a moment ago; only the tags are wanted here.
  const journal = JSON.parse(
    readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { tag: string }[] };
  return journal.entries.map((e) => e.tag);
}

/** A database whose schema a newer release moved past what this code knows. */
export class NewerSchemaError extends Error {
  constructor(readonly migration: string) {
    super(
      `This database was upgraded by a newer release (migration ${migration}); ` +
        'run that release or restore a backup taken before the upgrade.',
    );
    this.name = 'NewerSchemaError';
  }
}

/**
 * The bookkeeping table of a schema's migrations: drizzle's own for `public`; a campus schema of a
 * many-campus installation keeps its own beside its tables (decision 024).
 */
function bookkeepingOf(schema: string): { table: string } {
  return schema === 'public'
    ? { table: 'drizzle.__drizzle_migrations' }
    : { table: `${quoted(schema)}.__drizzle_migrations` };
}

/** The `created_at` of every migration the database recorded as applied, oldest first. */
export async function appliedMigrationTimes(db: Executor, schema = 'public'): Promise<number[]> {
  const { table: bookkeeping } = bookkeepingOf(schema);
  const [table] = await rowsOf<{ exists: boolean }>(
    db,
    sql`SELECT to_regclass(${bookkeeping}) IS NOT NULL AS exists`,
  );
  if (!table?.exists) return [];
  const rows = await rowsOf<{ created_at: string | number }>(
    db,
    sql.raw(`SELECT created_at FROM ${bookkeeping} ORDER BY created_at`),
  );
  return rows.map((r) => Number(r.created_at));
}

/** Throws NewerSchemaError when the database recorded a migration this code does not have. */
export function assertKnownMigrations(applied: readonly number[]): void {
  const times = new Set(knownMigrations().map((m) => m.createdAt));
  const index = applied.findIndex((t) => !times.has(t));
  if (index >= 0) {
    // The bookkeeping keeps no names: the applied list's position is the file's number.
    const when = new Date(applied[index]!).toISOString().slice(0, 10);
    throw new NewerSchemaError(`${String(index).padStart(4, '0')}, written ${when}`);
  }
}

/**
 * Runs, on `tx` (a transaction: a failed statement leaves the previous schema), every known migration
 * not applied yet, in order, up to and including the one created at `upTo` (all when undefined).
 * Refuses a database a newer release migrated. Returns the tags it ran. `schema` is where they go:
 * `public`, or a campus's schema, into which each statement is rewritten (campuses/campus-schema.ts).
 */
export async function applyMigrations(
  tx: Executor,
  upTo?: number,
  schema = 'public',
): Promise<string[]> {
  const bookkeeping = bookkeepingOf(schema);
  // A campus's schema exists already, made with its role (campuses/campus-provision.ts).
  if (schema === 'public') await tx.execute(sql`CREATE SCHEMA IF NOT EXISTS drizzle`);
  await tx.execute(
    sql.raw(`CREATE TABLE IF NOT EXISTS ${bookkeeping.table} (
          id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`),
  );
  const applied = await appliedMigrationTimes(tx, schema);
  assertKnownMigrations(applied);
  const last = applied.at(-1) ?? -Infinity;
  const ran: string[] = [];
  for (const migration of knownMigrations()) {
    if (migration.createdAt <= last) continue;
    if (upTo !== undefined && migration.createdAt > upTo) break;
    for (const statement of migration.statements) {
      const text = migrationStatementIn(statement, schema);
      if (text !== null) await tx.execute(sql.raw(text));
    }
    await tx.execute(
      sql`INSERT INTO ${sql.raw(bookkeeping.table)} (hash, created_at)
          VALUES (${migration.hash}, ${migration.createdAt})`,
    );
    ran.push(migration.tag);
  }
  return ran;
}
