import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { MIGRATION_LOCK, type Database, type Db } from '../db/database';
import { ensureListingJson } from '../db/listing-json-trigger';
import { ensureDealTriggers } from '../deal/deal-triggers';
import {
  appliedMigrationTimes,
  applyMigrations,
  assertKnownMigrations,
  knownMigrations,
} from '../db/migrator';
import { rowsOf, type Executor } from '../db/rows';
import type { Storage } from '../lib/storage/storage';
import { extractArchive } from './archive-reader';
import { RestoreRefusedError, fileEntry, tableEntry, type Manifest } from './manifest';
import { noProgress, type Progress } from './progress';
import { describeRowFailure } from './restore-failure';
import { columnsOf, OPERATIONAL_TABLES, tablesInRestoreOrder } from './snapshot';
import { countRows, verifyInstallation, type Verification } from './verify';

const INSERT_BATCH_ROWS = 500;
const WRITE_CONCURRENCY = 8;

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

export interface RestoreOptions {
  archive: string;
  /**
   * A database that holds no rows: one with no schema yet (openDatabase with `migrate: false`), or
   * one migrated no further than the archive was.
   */
  database: Database;
  storage: Storage;
  /** Where the archive is unpacked while restoring (default: the OS temp folder). */
  workDir?: string;
  /** False when the files are already in `storage` (migrate-data keeping DATA_DIR/uploads). */
  copyFiles?: boolean;
  progress?: Progress;
}

/** Refuses a target that holds any row or any file: a restore never merges or overwrites. */
export async function assertEmptyTarget(db: Executor, storage: Storage | null): Promise<void> {
  const found: string[] = [];
  for (const table of await tablesInRestoreOrder(db)) {
    if (OPERATIONAL_TABLES.has(table)) continue;
    const [count] = await rowsOf<{ n: number }>(
      db,
      sql.raw(`SELECT count(*)::int AS n FROM ${quote(table)}`),
    );
    const n = Number(count?.n ?? 0);
    if (n > 0) found.push(`${table}: ${n} rows`);
  }
  if (found.length > 0) {
    throw new RestoreRefusedError(
      `The target database already holds data (${found.join(', ')}). Nothing was changed: ` +
        'restore only into an empty DATA_DIR or an empty PostgreSQL database.',
    );
  }
  const files = storage ? await storage.list('') : [];
  if (files.length > 0) {
    throw new RestoreRefusedError(
      `The target file store (${storage!.kind === 's3' ? 'the S3 bucket' : 'DATA_DIR/uploads'}) ` +
        `already holds ${files.length} files (e.g. ${files[0]!.key}). Nothing was changed: ` +
        'restore only into an empty store.',
    );
  }
}

/** This code must know the migration the archive was written at. */
export function assertKnownArchiveLevel(manifest: Manifest): void {
  const known = knownMigrations();
  if (!known.some((m) => m.createdAt === manifest.schema.lastMigrationAt)) {
    throw new RestoreRefusedError(
      `The backup was taken with a newer database schema (${manifest.schema.migrations} migrations, ` +
        `this version has ${known.length}): upgrade Campus Books, then restore.`,
    );
  }
}

/** The target's schema, once at the archive's level, has every table and column the archive has. */
export async function assertCompatibleSchema(
  db: Executor,
  manifest: Manifest,
  schema = 'public',
): Promise<void> {
  for (const table of manifest.tables) {
    const columns = new Set(await columnsOf(db, table.name, schema));
    const unknown = table.columns.filter((c) => !columns.has(c));
    if (columns.size === 0 || unknown.length > 0) {
      throw new RestoreRefusedError(
        `This version of Campus Books has no ${columns.size === 0 ? 'table' : 'column'} ` +
          `${table.name}${unknown.length ? `.${unknown[0]}` : ''}: restore with the version that took the backup.`,
      );
    }
  }
}

/**
 * Brings the target to the archive's schema level: the migrations up to the archive's last, so its
 * rows load as they were written. A target already migrated further cannot go back.
 */
async function migrateToArchiveLevel(tx: Executor, manifest: Manifest): Promise<void> {
  const applied = await appliedMigrationTimes(tx);
  assertKnownMigrations(applied);
  if (applied.length > manifest.schema.migrations) {
    throw new RestoreRefusedError(
      `The target database already has a newer schema (${applied.length} migrations) than the ` +
        `backup (${manifest.schema.migrations}): an older backup's rows must pass through the ` +
        'migrations in between, from its own schema. Nothing was changed: restore into a database ' +
        'that has no tables yet (a new createdb, or a DATA_DIR without db/).',
    );
  }
  await applyMigrations(tx, manifest.schema.lastMigrationAt);
}

/**
 * Restores an archive into an empty installation, as an in-place upgrade would have carried it:
 * checks the target is empty, unpacks and checks the archive (every checksum), then in one
 * transaction creates the schema at the archive's level, inserts every table's rows, counts them
 * against the manifest, and runs the migrations written since (the same SQL as an upgrade, data steps
 * included); then writes the files, reads them back, and commits. Any failure rolls the database back
 * and removes every file this restore wrote: the target is left as it was, and a second attempt can
 * run. A row the database refuses is reported as `row <table> <key>: <rule>` (RestoreFailedError).
 */
export async function restoreBackup(
  options: RestoreOptions,
): Promise<{ manifest: Manifest; verification: Verification; upgradedBy: string[] }> {
  const { database, storage } = options;
  const progress = options.progress ?? noProgress;
  const copyFiles = options.copyFiles ?? true;
  await assertEmptyTarget(database.db, copyFiles ? storage : null);

  const workDir = await mkdtemp(path.join(options.workDir ?? tmpdir(), 'cb-restore-'));
  const written: string[] = [];
  try {
    progress({ phase: 'unpack and check archive', done: 0 });
    const manifest = await extractArchive(options.archive, workDir);
    assertKnownArchiveLevel(manifest);
    let upgradedBy: string[] = [];
    const verification = await database.db.transaction(async (tx) => {
      // A server starting meanwhile would migrate the same empty database: it waits for this.
      if (database.engine === 'postgres') {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      }
      await assertEmptyTarget(tx, null);
      await migrateToArchiveLevel(tx, manifest);
      await assertCompatibleSchema(tx, manifest);
      await insertRows(workDir, manifest, tx as unknown as Db, progress);
      const counted = await countRows(manifest, tx);
      upgradedBy = await applyMigrations(tx).catch((error: unknown) => {
        throw describeRowFailure(error);
      });
      if (upgradedBy.length > 0) progress({ phase: 'migrations', done: upgradedBy.length });
      await ensureListingJson(tx as unknown as Db);
      await ensureDealTriggers(tx as unknown as Db);
      if (copyFiles) await writeFiles(workDir, manifest, storage, progress, written);
      return verifyInstallation(manifest, tx, storage, progress, counted);
    });
    return { manifest, verification, upgradedBy };
  } catch (error) {
    for (const key of written) await storage.delete(key).catch(() => {});
    throw error;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** Writes the archive's files to the store; `written` collects each key as it is attempted. */
export async function writeFiles(
  dir: string,
  manifest: Manifest,
  storage: Storage,
  progress: Progress,
  written: string[],
) {
  const { files } = manifest;
  let bytes = 0;
  for (let start = 0; start < files.length; start += WRITE_CONCURRENCY) {
    const batch = files.slice(start, start + WRITE_CONCURRENCY);
    await Promise.all(
      batch.map(async (f) => {
        const data = await readFile(path.join(dir, fileEntry(f.key)));
        written.push(f.key);
        await storage.put(f.key, data, f.key.endsWith('.webp') ? 'image/webp' : undefined);
        bytes += data.length;
      }),
    );
    const done = Math.min(start + WRITE_CONCURRENCY, files.length);
    progress({ phase: 'write files', done, total: files.length, bytes });
  }
}

/**
 * Inserts each table's rows as PostgreSQL's own JSON, so every type converts back exactly, on `tx`
 * (the restore's transaction). Each batch runs in a savepoint: when the database refuses one, its
 * rows are tried one by one to name the row it refused (RestoreFailedError).
 */
export async function insertRows(
  dir: string,
  manifest: Manifest,
  tx: Db,
  progress: Progress,
  schema = 'public',
) {
  for (const [index, table] of manifest.tables.entries()) {
    const text = await readFile(path.join(dir, tableEntry(table.name)), 'utf8');
    const rows = text.split('\n').filter((line) => line.length > 0);
    const columns = table.columns.map(quote).join(', ');
    const name = sql.raw(`${quote(schema)}.${quote(table.name)}`);
    const insert = (db: Executor, json: string) =>
      db.execute(
        sql`INSERT INTO ${name} (${sql.raw(columns)})
            SELECT ${sql.raw(columns)} FROM json_populate_recordset(NULL::${name}, ${json}::json)`,
      );
    for (let start = 0; start < rows.length; start += INSERT_BATCH_ROWS) {
      const batch = rows.slice(start, start + INSERT_BATCH_ROWS);
      try {
        await tx.transaction((savepoint) => insert(savepoint, `[${batch.join(',')}]`));
      } catch {
        await insertOneByOne(tx, table.name, batch, start, insert);
      }
    }
    progress({ phase: 'tables', done: index + 1, total: manifest.tables.length });
  }
  // Rows came with their ids: each id sequence (conversation_events) continues after the largest.
  await tx.execute(sql.raw(resetSequences(schema)));
}

/** Inserts a refused batch's rows one by one, each in a savepoint; throws for the first refused. */
async function insertOneByOne(
  tx: Db,
  table: string,
  batch: string[],
  firstLine: number,
  insert: (db: Executor, json: string) => Promise<unknown>,
): Promise<void> {
  for (const [i, row] of batch.entries()) {
    try {
      await tx.transaction((savepoint) => insert(savepoint, `[${row}]`));
    } catch (error) {
      throw describeRowFailure(error, { table, key: rowKey(row, firstLine + i + 1) });
    }
  }
}

/** A row's key for a message: its id, else the other ids it holds, else its line in the archive. */
function rowKey(json: string, line: number): string {
  try {
    const row = JSON.parse(json) as Record<string, unknown>;
    if (row.id !== undefined) return `id=${String(row.id)}`;
    const ids = Object.entries(row).filter(([k]) => k.endsWith('_id'));
    if (ids.length > 0) return `(${ids.map(([k, v]) => `${k}=${String(v)}`).join(', ')})`;
  } catch {
    // not JSON: the line says where it is
  }
  return `line ${line}`;
}

/** `schema` is the default campus's `public` or a campus's, both checked names (campus-schema.ts). */
const resetSequences = (schema: string) => `DO $$
DECLARE r record;
BEGIN
  FOR r IN
    SELECT c.relname AS tbl, a.attname AS col,
           pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) AS seq
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = '${schema}'
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE c.relkind = 'r'
      AND pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) IS NOT NULL
  LOOP
    EXECUTE format('SELECT setval(%L, coalesce((SELECT max(%I) FROM %I.%I), 0) + 1, false)',
                   r.seq, r.col, '${schema}', r.tbl);
  END LOOP;
END
$$`;
