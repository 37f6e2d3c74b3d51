import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../src/db/database';
import { rowsOf } from '../../src/db/rows';
import { embeddedDbDir, localUploadsDir } from '../../src/ops/targets';

/** Test support for the upgrade test: every row and stored file of an installation, counted. */

export type Place = { engine: 'pglite'; dataDir: string } | { engine: 'postgres'; url: string };

/** Rows of every table of the public schema; the installation's servers must be stopped (PGlite). */
export async function countRows(place: Place): Promise<Record<string, number>> {
  const database =
    place.engine === 'pglite'
      ? await openDatabase({
          engine: 'pglite',
          dataDir: embeddedDbDir(place.dataDir),
          migrate: false,
        })
      : await openDatabase({ engine: 'postgres', url: place.url, poolSize: 3, migrate: false });
  try {
    const tables = await rowsOf<{ name: string }>(
      database.db,
      sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      const [row] = await rowsOf<{ n: number | string }>(
        database.db,
        sql`SELECT count(*) AS n FROM ${sql.identifier(name)}`,
      );
      counts[name] = Number(row!.n);
    }
    return counts;
  } finally {
    await database.close();
  }
}

/** Every file of the local store (DATA_DIR/uploads): its key and sha256. */
export async function storedFiles(dataDir: string): Promise<Record<string, string>> {
  const root = localUploadsDir(dataDir);
  const files: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(root, full)] = createHash('sha256')
      .update(await readFile(full))
      .digest('hex');
  }
  return files;
}

/**
 * Tables whose rows the servers make and drop as they run (attempt counters, job runs and leases,
 * upload locks): not the students' data, so not compared across an upgrade.
 */
export const RUNNING_STATE_TABLES = new Set(['rate_limits', 'jobs', 'upload_locks']);

/**
 * The counts `after` must show of the tables `before` had: the same, except the one alert of the
 * duplicate pair migration 0018 folds into the live one.
 */
export function expectedCounts(before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(before)
      .filter(([table]) => !RUNNING_STATE_TABLES.has(table))
      .map(([table, n]) => [table, table === 'alerts' ? n - 1 : n]),
  );
}

/** `after`'s counts of the tables `expected` names. */
export function countsOf(after: Record<string, number>, expected: Record<string, number>) {
  return Object.fromEntries(Object.keys(expected).map((table) => [table, after[table]]));
}
