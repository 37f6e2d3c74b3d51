import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../db/database';
import { rowsOf } from '../db/rows';
import type { Storage } from '../lib/storage/storage';
import { extractArchive } from './archive-reader';
import { RestoreRefusedError, fileEntry, tableEntry, type Manifest } from './manifest';
import { noProgress, type Progress } from './progress';
import { appliedMigrations, columnsOf, OPERATIONAL_TABLES, tablesInRestoreOrder } from './snapshot';
import { verifyInstallation, type Verification } from './verify';

const INSERT_BATCH_ROWS = 500;
const WRITE_CONCURRENCY = 8;

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

export interface RestoreOptions {
  archive: string;
  /** A migrated database (openDatabase runs the migrations) that must hold no rows. */
  database: Database;
  storage: Storage;
  /** Where the archive is unpacked while restoring (default: the OS temp folder). */
  workDir?: string;
  /** False when the files are already in `storage` (migrate-data keeping DATA_DIR/uploads). */
  copyFiles?: boolean;
  progress?: Progress;
}

/** Refuses a target that holds any row or any file: a restore never merges or overwrites. */
export async function assertEmptyTarget(db: Db, storage: Storage | null): Promise<void> {
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

/** The target's code must know every migration and column the archive was written with. */
async function assertCompatibleSchema(db: Db, manifest: Manifest): Promise<void> {
  const target = await appliedMigrations(db);
  if (!target.times.includes(manifest.schema.lastMigrationAt)) {
    throw new RestoreRefusedError(
      `The backup was taken with a newer database schema (${manifest.schema.migrations} migrations, ` +
        `this version has ${target.migrations}): upgrade Campus Books, then restore.`,
    );
  }
  for (const table of manifest.tables) {
    const columns = new Set(await columnsOf(db, table.name));
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
 * Restores an archive into an empty installation: checks the target is empty, unpacks and checks the
 * archive (every checksum), writes the files, inserts every table's rows in one transaction, then
 * reads everything back and compares it with the manifest.
 */
export async function restoreBackup(
  options: RestoreOptions,
): Promise<{ manifest: Manifest; verification: Verification }> {
  const { database, storage } = options;
  const progress = options.progress ?? noProgress;
  const copyFiles = options.copyFiles ?? true;
  await assertEmptyTarget(database.db, copyFiles ? storage : null);

  const workDir = await mkdtemp(path.join(options.workDir ?? tmpdir(), 'cb-restore-'));
  try {
    progress({ phase: 'unpack and check archive', done: 0 });
    const manifest = await extractArchive(options.archive, workDir);
    await assertCompatibleSchema(database.db, manifest);
    if (copyFiles) await writeFiles(workDir, manifest, storage, progress);
    await insertRows(workDir, manifest, database.db, progress);
    const verification = await verifyInstallation(manifest, database.db, storage, progress);
    return { manifest, verification };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

async function writeFiles(dir: string, manifest: Manifest, storage: Storage, progress: Progress) {
  const { files } = manifest;
  let bytes = 0;
  for (let start = 0; start < files.length; start += WRITE_CONCURRENCY) {
    const batch = files.slice(start, start + WRITE_CONCURRENCY);
    await Promise.all(
      batch.map(async (f) => {
        const data = await readFile(path.join(dir, fileEntry(f.key)));
        await storage.put(f.key, data, f.key.endsWith('.webp') ? 'image/webp' : undefined);
        bytes += data.length;
      }),
    );
    const done = Math.min(start + WRITE_CONCURRENCY, files.length);
    progress({ phase: 'write files', done, total: files.length, bytes });
  }
}

/** Inserts each table's rows as PostgreSQL's own JSON, so every type converts back exactly. */
export async function insertRows(dir: string, manifest: Manifest, db: Db, progress: Progress) {
  await db.transaction(async (tx) => {
    for (const [index, table] of manifest.tables.entries()) {
      const text = await readFile(path.join(dir, tableEntry(table.name)), 'utf8');
      const rows = text.split('\n').filter((line) => line.length > 0);
      const columns = table.columns.map(quote).join(', ');
      for (let start = 0; start < rows.length; start += INSERT_BATCH_ROWS) {
        const batch = `[${rows.slice(start, start + INSERT_BATCH_ROWS).join(',')}]`;
        await tx.execute(
          sql`INSERT INTO ${sql.raw(quote(table.name))} (${sql.raw(columns)})
              SELECT ${sql.raw(columns)} FROM json_populate_recordset(NULL::${sql.raw(quote(table.name))}, ${batch}::json)`,
        );
      }
      progress({ phase: 'tables', done: index + 1, total: manifest.tables.length });
    }
    // Rows came with their ids: each id sequence (conversation_events) continues after the largest.
    await tx.execute(sql.raw(RESET_SEQUENCES));
  });
}

const RESET_SEQUENCES = `DO $$
DECLARE r record;
BEGIN
  FOR r IN
    SELECT c.relname AS tbl, a.attname AS col,
           pg_get_serial_sequence(quote_ident(c.relname), a.attname) AS seq
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE c.relkind = 'r'
      AND pg_get_serial_sequence(quote_ident(c.relname), a.attname) IS NOT NULL
  LOOP
    EXECUTE format('SELECT setval(%L, coalesce((SELECT max(%I) FROM %I), 0) + 1, false)',
                   r.seq, r.col, r.tbl);
  END LOOP;
END
$$`;
