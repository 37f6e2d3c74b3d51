import type { Db } from '../db/db-type';
import type { NotificationHandler, Unlisten } from '../db/notifications';

/** The options of the job runner (jobs.ts): the runner's, a job's registration's, an enqueue's. */

export interface RegisterOptions {
  /** A recurring schedule: one run per slot of this many milliseconds, on one server. */
  every?: number;
  /**
   * With `every`: the slots are calendar times instead (e.g. 07:00 in the campus's zone, whose days
   * last 23 to 25 hours): the first slot after a time. `every` is then only the nominal period.
   */
  at?: (after: Date) => Date;
  /** Runs of a one-off job before it is given up (kept with `failed_at` for inspection). */
  maxAttempts?: number;
}

export interface EnqueueOptions {
  /** Not before (default: now). */
  runAt?: Date;
  /** At most one pending job with this key: enqueuing it again does nothing. */
  key?: string;
  maxAttempts?: number;
  /** Enqueue inside this transaction, so the job exists only if the transaction commits. */
  db?: Pick<Db, 'execute'>;
}

export interface JobsOptions {
  /** The clock (tests move it; nothing sleeps). */
  now?: () => Date;
  /** How long a claim holds a job; renewed every third of it while the job runs. */
  leaseMs?: number;
  /**
   * How often a server looks for due jobs (a NOTIFY on enqueue wakes it sooner): at each look, the
   * scopes a NOTIFY named and those whose next job (remembered from their last look) is due.
   */
  pollMs?: number;
  /**
   * How often a look visits every scope all the same (JOBS_IDLE_SCAN_MS; job-scopes.ts). Default:
   * `pollMs` (a single-campus installation looks at its one scope at every poll, as it always did).
   */
  idleScanMs?: number;
  /** Jobs one server runs at once. */
  concurrency?: number;
  /**
   * With polling, how long after `start()` the first look for due jobs waits; recurring slots that
   * fell due while no server ran move to that moment (jobs.ts, "start-up"). A job enqueued meanwhile
   * (its NOTIFY) still wakes the runner at once.
   */
  startDelayMs?: number;
  /**
   * Whose jobs this runner runs: each scope's `jobs` table, each in its scope's context (a campus of
   * a many-campus installation: its schema, its configuration and time zone). Default: one scope,
   * the database as it is (a single-campus installation).
   */
  scopes?: readonly JobScope[];
  log?: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

/**
 * What the jobs use of the database (db/database.ts's `Database`): its queries and LISTEN. Named
 * here, not imported, so that database.ts may generate triggers that enqueue (enqueueInTriggerSql, in job-statements.ts).
 */
export interface JobsDatabase {
  db: Db;
  listen(
    channel: string,
    onNotify: NotificationHandler,
    onReconnect?: () => void,
  ): Promise<Unlisten>;
}

/**
 * One set of jobs among those a runner serves (decision 024: a campus). Everything the runner does
 * for it (scheduling, claiming, the handlers, enqueues they make) runs inside `run`, where the
 * database handle and the configuration answer as this scope.
 */
export interface JobScope {
  /** Names the scope in logs ('' for the default campus). */
  key: string;
  /** The schema of its `jobs` table, which its enqueues' NOTIFY names; default `public`. */
  schema?: string;
  run<T>(work: () => T): T;
  /** True while the scope's campus is read-only or being moved: its due jobs are not claimed. */
  paused?: () => boolean;
  /**
   * Its server's LISTEN, for the enqueues' NOTIFY; default: the runner's database's. Read at each
   * use: a campus moved to another server listens there (`Jobs.scopeMoved`).
   */
  readonly listen?: JobsDatabase['listen'];
}
