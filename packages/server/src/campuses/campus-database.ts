import { drizzle } from 'drizzle-orm/node-postgres';
import type { Database } from '../db/database';
import { CURRENT_HANDLE, nameStatementsOf } from '../db/current-handle';
import type { Db } from '../db/db-type';
import * as schema from '../db/schema';
import { currentCampusWork, type CampusHandles, type CampusWork } from './campus-context';
import { CampusPool } from './campus-pool';
import { readCampusVersion } from './campus-versions';

/** A campus's handles on a PostgreSQL server's shared pools (the default campus: `public`). */
export function campusHandles(server: Database, campusSchema: string): CampusHandles {
  if (!server.pools) throw new Error('several campuses need PostgreSQL (DATABASE_URL)');
  const on = (pool: CampusPool) => {
    const db = drizzle(pool as never, { schema }) as unknown as Db;
    // The default campus's statements keep their names; a campus's carry its schema's.
    if (campusSchema !== 'public') nameStatementsOf(db, campusSchema);
    return db;
  };
  const main = server.pools.main;
  return {
    db: on(new CampusPool(main, campusSchema)),
    customPlanDb: on(new CampusPool(server.pools.customPlan, campusSchema)),
    genericPlanDb: on(new CampusPool(server.pools.genericPlan, campusSchema)),
    catalogueVersion: () => readCampusVersion(main, campusSchema),
    server,
  };
}

/** A `Db` whose every use goes to the handle `pick` gives at that moment. */
function delegating(pick: () => Db): Db {
  return new Proxy({} as Db, {
    get(_, property) {
      const target = pick();
      if (property === CURRENT_HANDLE) return target;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
    has: (_, property) => Reflect.has(pick(), property),
  });
}

/**
 * A campus's `db` wherever it is now: a campus moved to another server (`campus move`) is read there
 * from the next query on (the live-event hub of a campus keeps one).
 */
export function followingDb(campus: CampusWork): Db {
  return delegating(() => campus.handles.db);
}

/**
 * The database as the app sees it in a many-campus installation: `db`, `customPlanDb` and
 * `genericPlanDb` are the request's campus's handles (campus-context.ts), the default campus's
 * (`public`) outside any campus's work. A feature that took `app.database.db` when its routes were
 * registered therefore still queries the campus of each request. Everything else (ping, LISTEN,
 * the pools' figures, close) is the home server's.
 */
export function campusAwareDatabase(home: Database): Database {
  const homeHandles = campusHandles(home, 'public');
  const pick = (which: 'db' | 'customPlanDb' | 'genericPlanDb') => () =>
    (currentCampusWork()?.handles ?? homeHandles)[which];
  return {
    ...home,
    db: delegating(pick('db')),
    customPlanDb: delegating(pick('customPlanDb')),
    genericPlanDb: delegating(pick('genericPlanDb')),
  };
}
