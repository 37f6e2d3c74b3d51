import type { SQL } from 'drizzle-orm';
import type { Db } from './db-type';

/** Anything that runs raw SQL: the database or a transaction. */
export type Executor = Pick<Db, 'execute'>;

/**
 * The rows of a raw query, typed by the caller. Both drivers answer `{ rows }`, which Drizzle's
 * shared type does not say: this is the one place that cast lives.
 */
export async function rowsOf<T = Record<string, unknown>>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
