import { sql, type SQL } from 'drizzle-orm';

/**
 * A text constant of the code (a campus's school flag or label, a status) written into a statement
 * as a literal rather than sent as a parameter: a statement without parameters is planned once per
 * connection (db/prepared.ts). Never for a value from a request. Quotes are doubled, as
 * standard_conforming_strings (on since PostgreSQL 9.1) reads them.
 */
export function textLiteral(value: string): SQL {
  return sql.raw(`'${value.replaceAll("'", "''")}'`);
}
