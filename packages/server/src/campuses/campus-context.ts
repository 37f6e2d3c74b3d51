import { AsyncLocalStorage } from 'node:async_hooks';
import type { CampusConfig } from '@campus-books/common/campus-config';
import type { Database } from '../db/database';
import type { Db } from '../db/db-type';
import type { NotificationHandler, Unlisten } from '../db/notifications';
import type { CampusState } from './campus-directory';

/** A campus's three database handles, each pointing every connection it takes at its schema. */
export interface CampusHandles {
  db: Db;
  customPlanDb: Db;
  genericPlanDb: Db;
  /**
   * The campus's catalogue version, read after the call together with the other campuses of its
   * server (campus-versions.ts); absent, the caches read it through `db`.
   */
  catalogueVersion?: () => Promise<number>;
  /**
   * LISTEN and its fence on the campus's PostgreSQL server (db/database.ts): the caches hear its
   * catalogue's notifications there (features/search/listing-caches.ts).
   */
  server?: Pick<Database, 'listen' | 'heard'>;
}

/** The campus a piece of work (a request, a campus's migration) is done for. */
export interface CampusWork {
  key: string;
  schema: string;
  config: CampusConfig;
  handles: CampusHandles;
  /**
   * The directory's state, as this app server last read it (campus-installation.ts polls it):
   * while `read_only` or `moving` the campus's state-changing requests are refused and its jobs
   * wait. Unset: active.
   */
  state?: CampusState;
}

/** A campus an app server serves: its work, and LISTEN on its server (jobs, live streams). */
export interface ServedCampus extends CampusWork {
  /**
   * LISTEN on the campus's PostgreSQL server: its one listening connection, shared by every campus
   * that server holds (a campus's channels carry its schema: campus-schema.ts, campusChannel).
   */
  listen(
    channel: string,
    onNotify: NotificationHandler,
    onReconnect?: () => void,
  ): Promise<Unlisten>;
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

/** Runs `work` outside every campus's: the default campus's (`public`), the process's configuration. */
export function runOutsideCampus<T>(work: () => T): T {
  return storage.exit(work);
}

/** The schema of the work at hand: its campus's, `public` outside any (the default campus). */
export function currentCampusSchema(): string {
  return storage.getStore()?.schema ?? 'public';
}
