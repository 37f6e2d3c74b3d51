import { existsSync } from 'node:fs';
import { inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { loadConfig } from '../config/config';
import { requiredBooks, userCourses } from '../db/courses.schema';
import { openDatabase, type Db } from '../db/database';
import { DataDirInUseError } from '../db/data-dir-lock';
import { listings } from '../db/schema';
import { alerts } from '../db/alerts.schema';
import type { CampusListKind } from './campus-lists';
import { embeddedDbDir } from './targets';

/** Rows of one table that store a key: how many, and up to five of them by id or name. */
export interface KeyInUse {
  key: string;
  table: string;
  count: number;
  examples: string[];
}

const EXAMPLES = 5;

/** Every column that stores a list's key, with how a row is named in a message. */
function columnsOf(kind: CampusListKind): Array<{ table: string; column: PgColumn; name: SQL }> {
  if (kind === 'majors') {
    return [
      { table: 'listings', column: listings.major, name: sql`${listings.id}::text` },
      { table: 'alerts', column: alerts.major, name: sql`${alerts.id}::text` },
    ];
  }
  return [
    { table: 'listings', column: listings.subject, name: sql`${listings.id}::text` },
    { table: 'alerts', column: alerts.subject, name: sql`${alerts.id}::text` },
    {
      table: 'user_courses',
      column: userCourses.subject,
      name: sql`${userCourses.subject} || ' ' || ${userCourses.courseNumber} || ' of user ' || ${userCourses.userId}::text`,
    },
    {
      table: 'required_books',
      column: requiredBooks.subject,
      name: sql`${requiredBooks.subject} || ' ' || ${requiredBooks.courseNumber} || ' ' || ${requiredBooks.isbn}`,
    },
  ];
}

/** The rows that still store any of `keys` (a list's keys the import would remove). */
export async function findKeysInUse(
  db: Db,
  kind: CampusListKind,
  keys: readonly string[],
): Promise<KeyInUse[]> {
  if (keys.length === 0) return [];
  const found: KeyInUse[] = [];
  for (const { table, column, name } of columnsOf(kind)) {
    const rows = await db
      .select({
        key: sql<string>`${column}`,
        count: sql<number>`count(*)::int`,
        examples: sql<
          string[]
        >`(array_agg(${name} ORDER BY ${name}))[1:${sql.raw(String(EXAMPLES))}]`,
      })
      .from(column.table)
      .where(inArray(column, [...keys]))
      .groupBy(column)
      .orderBy(column);
    for (const row of rows) found.push({ table, ...row });
  }
  return found;
}

/** The uses, one line each ("  ECON: listings, 3 rows (id, id, …)"). */
export function describeKeysInUse(uses: readonly KeyInUse[]): string {
  return uses
    .map(
      (use) =>
        `  ${use.key}: ${use.table}, ${use.count} row(s): ${use.examples.join(', ')}` +
        `${use.count > use.examples.length ? ', …' : ''}`,
    )
    .join('\n');
}

/**
 * The uses in the database the server's environment names (DATABASE_URL, else DATA_DIR's embedded
 * one), opened the way the operator commands open it. An embedded database not created yet (a fresh
 * DATA_DIR) holds nothing, and is not created.
 */
export async function findKeysInUseOf(
  env: NodeJS.ProcessEnv,
  kind: CampusListKind,
  keys: readonly string[],
): Promise<KeyInUse[]> {
  if (keys.length === 0) return [];
  const config = loadConfig(env);
  const dataDir = embeddedDbDir(config.dataDir);
  if (!config.databaseUrl && !existsSync(dataDir)) return [];
  let database;
  try {
    database = await openDatabase(
      config.databaseUrl
        ? { engine: 'postgres', url: config.databaseUrl, poolSize: 3 }
        : { engine: 'pglite', dataDir },
    );
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      throw new Error(`${error.message} Stop the server to check its embedded database.`);
    }
    throw error;
  }
  try {
    return await findKeysInUse(database.db, kind, keys);
  } finally {
    await database.close();
  }
}
