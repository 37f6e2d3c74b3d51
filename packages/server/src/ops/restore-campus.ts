import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { activeCampus, setActiveCampus } from '@campus-books/common/active-campus';
import type { CampusConfig } from '@campus-books/common/campus-config';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { ensureCatalogueNotify } from '../campuses/campus-catalogue';
import { currentCampusWork, runInCampus } from '../campuses/campus-context';
import { quoted } from '../campuses/campus-schema';
import { MIGRATION_LOCK, type Db } from '../db/database';
import { ensureListingJson } from '../db/listing-json-trigger';
import { applyMigrations } from '../db/migrator';
import { rowsOf, type Executor } from '../db/rows';
import * as dbSchema from '../db/schema';
import { ensureDealTriggers } from '../deal/deal-triggers';
import type { Storage } from '../lib/storage/storage';
import { extractArchive } from './archive-reader';
import type { CampusTarget } from './backup-campus';
import type { Manifest } from './manifest';
import { noProgress, type Progress } from './progress';
import { assertCompatibleSchema, assertKnownArchiveLevel, insertRows, writeFiles } from './restore';
import { describeRowFailure } from './restore-failure';
import { columnsOf, OPERATIONAL_TABLES, tablesInRestoreOrder } from './snapshot';
import { countRows, verifyInstallation, type Verification } from './verify';

export interface CampusRestoreOptions {
  archive: string;
  target: CampusTarget;
  /** The campus's folder of the store (campus-storage.ts, storageOfCampus). */
  storage: Storage;
  workDir?: string;
  progress?: Progress;
}

export interface CampusRestored {
  manifest: Manifest;
  verification: Verification;
  upgradedBy: string[];
  /** Files of the campus's folder the archive does not name (later images, uploads, exports). */
  removedFiles: number;
}

/**
 * Restores an archive into one campus of a many-campus installation, replacing what the campus
 * holds and nothing else (decision 024): in one transaction on the campus's server its schema is
 * dropped and made again (as its role, which owns nothing else), brought to the archive's level,
 * loaded, counted, migrated to this version with its triggers, and given back its running servers'
 * rows (jobs, limits, locks: decision 004's operational tables, which an archive leaves out); its
 * files are written into its folder and read back before the commit. Then the folder's files the
 * archive does not name are deleted. A failure rolls the schema back and deletes only the files
 * this restore added, so the campus is as it was. Other campuses' schemas and files are not touched.
 */
export async function restoreCampus(options: CampusRestoreOptions): Promise<CampusRestored> {
  const { target, storage } = options;
  const { key, schema, config } = target.campus;
  const progress = options.progress ?? noProgress;
  const workDir = await mkdtemp(path.join(options.workDir ?? tmpdir(), 'cb-restore-'));
  const before = new Set((await storage.list('')).map((o) => o.key));
  const written: string[] = [];
  const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: 5000 });
  let committed = false;
  try {
    await client.connect();
    progress({ phase: 'unpack and check archive', done: 0 });
    const manifest = await extractArchive(options.archive, workDir);
    assertKnownArchiveLevel(manifest);
    const db = drizzle(client as never, { schema: dbSchema }) as unknown as Db;
    const work = { key, schema, config, handles: { db, customPlanDb: db, genericPlanDb: db } };
    const restored = await inCampus(work, () =>
      db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
        const kept = await operationalRows(tx, schema);
        await recreateSchema(tx, schema);
        await applyMigrations(tx, manifest.schema.lastMigrationAt, schema);
        await assertCompatibleSchema(tx, manifest, schema);
        await insertRows(workDir, manifest, tx as unknown as Db, progress, schema);
        const counted = await countRows(manifest, tx);
        const upgradedBy = await applyMigrations(tx, undefined, schema).catch((error: unknown) => {
          throw describeRowFailure(error);
        });
        await ensureListingJson(tx as unknown as Db, schema);
        await ensureDealTriggers(tx as unknown as Db, schema);
        await ensureCatalogueNotify(tx as unknown as Db, schema);
        await putBack(tx, schema, kept);
        await writeFiles(workDir, manifest, storage, progress, written);
        const verification = await verifyInstallation(manifest, tx, storage, progress, counted);
        return { verification, upgradedBy };
      }),
    );
    committed = true;
    const named = new Set(manifest.files.map((f) => f.key));
    let removedFiles = 0;
    for (const { key: file } of await storage.list('')) {
      if (named.has(file)) continue;
      await storage.delete(file);
      removedFiles += 1;
    }
    return { manifest, ...restored, removedFiles };
  } catch (error) {
    // An image's files are never rewritten under its id: those the campus had stay as they were.
    if (!committed) {
      for (const file of written) if (!before.has(file)) await storage.delete(file).catch(() => {});
    }
    throw error;
  } finally {
    await client.end().catch(() => {});
    await rm(workDir, { recursive: true, force: true });
  }
}

/** Runs `work` as the campus's: a migration's listing JSON names its schools (migrateCampus). */
async function inCampus<T>(
  work: Parameters<typeof runInCampus>[0],
  run: () => Promise<T>,
): Promise<T> {
  let outside: CampusConfig | undefined;
  try {
    outside = activeCampus().config;
  } catch {
    outside = undefined;
  }
  setActiveCampus(() => currentCampusWork()?.config ?? outside);
  return runInCampus(work, run);
}

/**
 * Drops the campus's schema as its role (its owner) and makes it again under the login role, as
 * `campus add` made it (campus-provision.ts), then points the connection at it.
 */
async function recreateSchema(tx: Executor, schema: string): Promise<void> {
  const name = quoted(schema);
  await tx.execute(sql.raw(`SET ROLE ${name}`));
  await tx.execute(sql.raw(`DROP SCHEMA ${name} CASCADE`));
  await tx.execute(sql.raw('RESET ROLE'));
  await tx.execute(sql.raw(`CREATE SCHEMA ${name} AUTHORIZATION ${name}`));
  await tx.execute(sql.raw(`SET search_path TO ${name}, public`));
  await tx.execute(sql.raw(`SET ROLE ${name}`));
}

/** The running servers' rows of the campus (OPERATIONAL_TABLES), as JSON, by table. */
async function operationalRows(tx: Executor, schema: string): Promise<Map<string, string[]>> {
  const kept = new Map<string, string[]>();
  for (const table of await tablesInRestoreOrder(tx, schema)) {
    if (!OPERATIONAL_TABLES.has(table)) continue;
    const rows = await rowsOf<{ r: string }>(
      tx,
      sql.raw(`SELECT row_to_json(t)::text AS r FROM ${quoted(schema)}.${quoted(table)} t`),
    );
    kept.set(
      table,
      rows.map((x) => x.r),
    );
  }
  return kept;
}

/**
 * Puts the running servers' rows back (its jobs keep their schedule, its limits their counts) and
 * moves the catalogue's version past the one before, with its NOTIFY at the commit: the app
 * servers' caches of the campus's searches and pages empty (campus-catalogue.ts).
 */
async function putBack(tx: Executor, schema: string, kept: Map<string, string[]>): Promise<void> {
  for (const [table, rows] of kept) {
    if (rows.length === 0 || table === 'catalogue_version') continue;
    const name = `${quoted(schema)}.${quoted(table)}`;
    const columns = (await columnsOf(tx, table, schema)).map(quoted).join(', ');
    await tx.execute(
      sql`INSERT INTO ${sql.raw(name)} (${sql.raw(columns)})
          SELECT ${sql.raw(columns)} FROM json_populate_recordset(NULL::${sql.raw(name)}, ${`[${rows.join(',')}]`}::json)
          ON CONFLICT DO NOTHING`,
    );
  }
  const [old] = (kept.get('catalogue_version') ?? []).map(
    (row) => Number((JSON.parse(row) as { version: number }).version) || 0,
  );
  const [now] = await rowsOf<{ version: string }>(
    tx,
    sql.raw(
      `UPDATE ${quoted(schema)}.catalogue_version SET version = greatest(version, ${old ?? 0}) + 1
        WHERE id = 1 RETURNING version::text AS version`,
    ),
  );
  await tx.execute(sql`SELECT pg_notify('catalogue', ${`${schema}:${now?.version ?? 0}`})`);
}
