import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

/**
 * The database or a transaction on it, whichever engine: what every query runs on. Its own file, so
 * that what database.ts imports (the listing JSON trigger, `rowsOf`) can name it without a loop.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
