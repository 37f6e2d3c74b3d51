import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../packages/server/src/db/database';
import { seedCatalogue, type SeedResult } from '../generate/seed';
import type { Engine } from './options';

/** A seeded database the server can be started on, and how to throw it away. */
export interface PreparedDatabase {
  engine: Engine;
  size: number;
  dataDir: string;
  /** Extra environment for the server (DATABASE_URL for PostgreSQL). */
  env: Record<string, string>;
  seed: SeedResult;
  dispose(): Promise<void>;
}

async function onAdmin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** An empty PostgreSQL database of its own on the given server, and how to drop it. */
export async function createScratchDatabase(
  postgresUrl: string,
  label = 'scratch',
): Promise<{ url: string; dispose(): Promise<void> }> {
  const name = `cb_bench_${process.pid}_${label}_${Date.now()}`;
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  await onAdmin(postgresUrl, `CREATE DATABASE ${name}`);
  return {
    url: url.toString(),
    dispose: () => onAdmin(postgresUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * A fresh database seeded with `size` listings. PGlite: DATA_DIR/db, exactly where the server looks.
 * PostgreSQL: a scratch database of its own on the given server, dropped by dispose().
 */
export async function prepareDatabase(
  engine: Engine,
  size: number,
  options: { seed: number; postgresUrl: string },
): Promise<PreparedDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `cb-bench-${engine}-${size}-`));
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (engine === 'pglite') {
    const database = await openDatabase({ engine: 'pglite', dataDir: path.join(dataDir, 'db') });
    try {
      const seed = await seedCatalogue(database, {
        size,
        seed: options.seed,
        analyze: true,
        dataDir,
      });
      return { engine, size, dataDir, env: {}, seed, dispose: async () => removeDataDir() };
    } finally {
      await database.close();
    }
  }

  const scratch = await createScratchDatabase(options.postgresUrl, String(size));
  const url = scratch.url;
  const dispose = async () => {
    removeDataDir();
    await scratch.dispose();
  };
  try {
    const database = await openDatabase({ engine: 'postgres', url });
    try {
      const seed = await seedCatalogue(database, {
        size,
        seed: options.seed,
        analyze: true,
        dataDir,
      });
      return { engine, size, dataDir, env: { DATABASE_URL: url }, seed, dispose };
    } finally {
      await database.close();
    }
  } catch (error) {
    await dispose();
    throw error;
  }
}
