import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { readDirectory, type CampusEntry } from '../campuses/campus-directory';
import { CampusPool } from '../campuses/campus-pool';
import { storageOfCampus } from '../campuses/campus-storage';
import { ConfigError, type Config } from '../config/config';
import type { Database, Db } from '../db/database';
import * as schema from '../db/schema';
import type { Storage } from '../lib/storage/storage';
import { storageFor } from './targets';

/** A campus of the directory that `--campus` named, and the PostgreSQL server holding it. */
export interface CampusTarget {
  campus: CampusEntry;
  /** The campus's server: the directory's, else the home database (DATABASE_URL). */
  url: string;
}

/**
 * The campus `--campus <key>` names (decision 024): read from the home database's directory.
 * Without DATABASE_URL there is no directory (a configuration problem, exit 78); a key the
 * directory lacks is refused with the keys it has.
 */
export async function findCampus(config: Config, key: string): Promise<CampusTarget> {
  if (!config.databaseUrl) {
    throw new ConfigError(['--campus: several campuses need PostgreSQL (DATABASE_URL)']);
  }
  const home = new pg.Client({
    connectionString: config.databaseUrl,
    connectionTimeoutMillis: 5000,
  });
  await home.connect();
  try {
    const campuses = await readDirectory(home);
    const campus = campuses.find((c) => c.key === key);
    if (!campus) {
      const known = campuses.map((c) => c.key).join(', ') || 'none';
      throw new Error(`No campus ${JSON.stringify(key)} in the directory (campuses: ${known})`);
    }
    return { campus, url: campus.server ?? config.databaseUrl };
  } finally {
    await home.end();
  }
}

/**
 * A campus's database as a backup reads it: a fresh pool on its server whose every connection is
 * pointed at the campus's schema and role first (campus-pool.ts), so it reads the campus's rows as
 * the campus's role, which reads no other campus's. No migration runs (as connectPostgres).
 */
export async function connectCampus(target: CampusTarget): Promise<Database> {
  const pool = new pg.Pool({ connectionString: target.url, max: 4, connectionTimeoutMillis: 5000 });
  pool.on('error', () => {});
  const db = drizzle(new CampusPool(pool, target.campus.schema) as never, {
    schema,
  }) as unknown as Db;
  try {
    await db.execute(sql`SELECT 1`);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    engine: 'postgres',
    db,
    customPlanDb: db,
    genericPlanDb: db,
    ping: async () => {
      await db.execute(sql`SELECT 1`);
    },
    listen: () => Promise.reject(new Error('A backup connection does not listen')),
    close: () => pool.end(),
  };
}

/** The campus's folder of the store the server uses (campuses/<key>/, campus-storage.ts). */
export function campusStorageFor(config: Config, key: string): Storage {
  return storageOfCampus(storageFor(config), key);
}
