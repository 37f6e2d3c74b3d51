import { currentHandle, statementName } from './current-handle';
import type { Db } from './database';

const statements = new WeakMap<Db, Map<string, unknown>>();

/**
 * A named prepared statement, built once per database handle and name: neither drizzle nor the
 * database builds or plans it again. For statements whose best plan does not depend on their values.
 */
export function preparedOnce<T>(facade: Db, name: string, prepare: (name: string) => T): T {
  // A many-campus installation's facade: the statement is its current campus's handle's.
  const db = currentHandle(facade);
  let byName = statements.get(db);
  if (!byName) statements.set(db, (byName = new Map()));
  if (!byName.has(name)) byName.set(name, prepare(statementName(db, name)));
  return byName.get(name) as T;
}

const SHAPES_KEPT = 1_000;
/**
 * Shapes whose statements are named, per database handle: PostgreSQL keeps a named statement on each
 * pooled connection until it closes (~70 KB for a search's), so a caller cannot make it keep more
 * than this many by inventing shapes; the rest are sent unnamed (parsed on every run).
 */
export const NAMED_SHAPES = 100;
const byShape = new WeakMap<Db, { kept: Map<string, unknown>; names: Map<string, string> }>();

/**
 * A statement built once per database handle and shape key: drizzle builds the SQL once, and the
 * database parses a named one once per connection and plans it with each run's values (the pool's
 * plan_cache_mode, database.ts), or once if it has none. The most recently used SHAPES_KEPT shapes
 * are kept; `prepare` gets the name to give it ('' for an unnamed statement).
 */
export function preparedByShape<T>(facade: Db, key: string, prepare: (name: string) => T): T {
  const db = currentHandle(facade);
  let shapes = byShape.get(db);
  if (!shapes) byShape.set(db, (shapes = { kept: new Map(), names: new Map() }));
  const { kept, names } = shapes;
  let statement = kept.get(key) as T | undefined;
  if (statement === undefined) {
    let name = names.get(key);
    if (name === undefined && names.size < NAMED_SHAPES) {
      name = `search_shape_${names.size + 1}`;
      names.set(key, name);
    }
    statement = prepare(statementName(db, name ?? ''));
    if (kept.size >= SHAPES_KEPT) kept.delete(kept.keys().next().value!);
  } else {
    kept.delete(key);
  }
  kept.set(key, statement);
  return statement;
}
