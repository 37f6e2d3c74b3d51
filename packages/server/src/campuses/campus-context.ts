import { AsyncLocalStorage } from 'node:async_hooks';
import type { CampusConfig } from '@campus-books/common/campus-config';
import type { Db } from '../db/db-type';

/** A campus's three database handles, each pointing every connection it takes at its schema. */
export interface CampusHandles {
  db: Db;
  customPlanDb: Db;
  genericPlanDb: Db;
}

/** The campus a piece of work (a request, a campus's migration) is done for. */
export interface CampusWork {
  key: string;
  schema: string;
  config: CampusConfig;
  handles: CampusHandles;
}

const storage = new AsyncLocalStorage<CampusWork>();

/** The campus of the work at hand, or undefined outside any (a single-campus installation). */
export function currentCampusWork(): CampusWork | undefined {
  return storage.getStore();
}

/** Runs `work` as the campus's: activeCampus() and the database facade answer as that campus. */
export function runInCampus<T>(campus: CampusWork, work: () => T): T {
  return storage.run(campus, work);
}
