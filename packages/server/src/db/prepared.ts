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

const SHAPES_KEPT = 1_000;
const byShape = new WeakMap<Db, Map<string, unknown>>();

/**
 * A statement built once per database handle and shape key, for statements whose values change
 * their best plan: drizzle builds the SQL once, the database still plans it with each run's values
 * (the caller prepares it unnamed). The most recently used SHAPES_KEPT shapes are kept.
 */
export function preparedByShape<T>(db: Db, key: string, prepare: () => T): T {
  let kept = byShape.get(db);
  if (!kept) byShape.set(db, (kept = new Map()));
  let statement = kept.get(key) as T | undefined;
  if (statement === undefined) {
    statement = prepare();
    if (kept.size >= SHAPES_KEPT) kept.delete(kept.keys().next().value!);
  } else {
    kept.delete(key);
  }
  kept.set(key, statement);
  return statement;
}
