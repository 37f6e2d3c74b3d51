import type { Db } from './database';

const statements = new WeakMap<Db, Map<string, unknown>>();

/**
 * A named prepared statement, built once per database handle and name: neither drizzle nor the
 * database builds or plans it again. For statements whose best plan does not depend on their values.
 */
export function preparedOnce<T>(db: Db, name: string, prepare: (name: string) => T): T {
  let byName = statements.get(db);
  if (!byName) statements.set(db, (byName = new Map()));
  if (!byName.has(name)) byName.set(name, prepare(name));
  return byName.get(name) as T;
}
