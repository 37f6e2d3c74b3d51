import { existsSync } from 'node:fs';
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { loadConfig } from '../config/config';
import { requiredBooks, userCourses } from '../db/courses.schema';
import { openDatabase, type Db } from '../db/database';
import { DataDirInUseError } from '../db/data-dir-lock';
import { listings } from '../db/schema';
import { alerts } from '../db/alerts.schema';
import { meetups } from '../db/ratings.schema';
import { rowsOf } from '../db/rows';
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

/** The lists of a campus file whose keys rows store: the importable ones, its schools and spots. */
export type KeyedList = CampusListKind | 'schools' | 'meetupSpots';

/**
 * Every column that stores a list's key, with how a row is named in a message; `many` when the
 * column holds several keys (a listing's schools).
 */
function columnsOf(
  kind: KeyedList,
): Array<{ table: string; column: PgColumn; name: SQL; many?: true }> {
  const byId = (id: PgColumn) => sql`${id}::text`;
  switch (kind) {
    case 'schools':
      return [
        { table: 'listings', column: listings.schools, name: byId(listings.id), many: true },
        { table: 'alerts', column: alerts.school, name: byId(alerts.id) },
      ];
    case 'meetupSpots':
      return [{ table: 'meetups', column: meetups.spotId, name: byId(meetups.id) }];
    case 'majors':
      return [
        { table: 'listings', column: listings.major, name: byId(listings.id) },
        { table: 'alerts', column: alerts.major, name: byId(alerts.id) },
      ];
    case 'subjects':
      return [
        { table: 'listings', column: listings.subject, name: byId(listings.id) },
        { table: 'alerts', column: alerts.subject, name: byId(alerts.id) },
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
}

/** Every table whose rows store a key of one of the lists, each once. */
export function keyedTables(): string[] {
  const lists: KeyedList[] = ['schools', 'subjects', 'majors', 'meetupSpots'];
  return [...new Set(lists.flatMap((kind) => columnsOf(kind).map((c) => c.table)))];
}

/** The rows that still store any of `keys` (a list's keys an import or a new file would remove). */
export async function findKeysInUse(
  db: Db,
  kind: KeyedList,
  keys: readonly string[],
): Promise<KeyInUse[]> {
  if (keys.length === 0) return [];
  const found: KeyInUse[] = [];
  for (const { table, column, name, many } of columnsOf(kind)) {
    // A column of several keys is read one key a row (unnest), as a column of one is.
    const key = many ? sql`used.key` : sql`${column}`;
    const from = many ? sql`${column.table}, unnest(${column}) AS used(key)` : sql`${column.table}`;
    const rows = await rowsOf<Omit<KeyInUse, 'table'>>(
      db,
      sql`SELECT ${key} AS key, count(*)::int AS count,
                 (array_agg(${name} ORDER BY ${name}))[1:${sql.raw(String(EXAMPLES))}] AS examples
            FROM ${from}
           WHERE ${key} = ANY(${sql.param([...keys])}::text[])
           GROUP BY 1 ORDER BY 1`,
    );
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
