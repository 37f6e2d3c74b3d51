import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Config } from '../config/config';
import { openDatabase, type Database, type Db } from '../db/database';
import * as schema from '../db/schema';
import { createLocalStorage } from '../lib/storage/local-storage';
import { createS3Storage } from '../lib/storage/s3-storage';
import type { Storage } from '../lib/storage/storage';

export const embeddedDbDir = (dataDir: string) => path.join(dataDir, 'db');
export const localUploadsDir = (dataDir: string) => path.join(dataDir, 'uploads');

/** The store the server would use with this configuration. */
export function storageFor(config: Config): Storage {
  return config.s3
    ? createS3Storage(config.s3)
    : createLocalStorage(localUploadsDir(config.dataDir));
}

/**
 * A PostgreSQL database as it is, without running migrations: a backup must not change the schema
 * under a server that may be running an older version.
 */
export async function connectPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5000 });
  pool.on('error', () => {});
  const db = drizzle(pool, { schema }) as unknown as Db;
  await db.execute(sql`SELECT 1`);
  return {
    engine: 'postgres',
    db,
    // A backup does not search.
    customPlanDb: db,
    genericPlanDb: db,
    ping: async () => {
      await pool.query('SELECT 1');
    },
    listen: () => Promise.reject(new Error('A backup connection does not listen')),
    close: () => pool.end(),
  };
}

/**
 * The database a restore writes into, as it is (the restore brings it to the archive's schema level
 * itself, then to this version's), and locked when embedded.
 */
export function openRestoreTarget(config: Config): Promise<Database> {
  return config.databaseUrl
    ? openDatabase({ engine: 'postgres', url: config.databaseUrl, poolSize: 4, migrate: false })
    : openDatabase({ engine: 'pglite', dataDir: embeddedDbDir(config.dataDir), migrate: false });
}

/** Drops the password from a connection URL, for messages. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the PostgreSQL server';
  }
}
