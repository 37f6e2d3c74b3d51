import { sql, type SQL } from 'drizzle-orm';

/**
 * A part of a search's SQL whose values are placeholders: it is built (by drizzle, the costly part of
 * a search for the server) once per shape and kept (searchStatement), and each search fills it with
 * its own values. `key` names the shape: equal keys build equal SQL.
 */
export type Build = () => SQL;
export const p = (name: string) => sql.placeholder(name);
