import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/db-type';
import { rowsOf } from '../db/rows';
import {
  LeaseLostError,
  nextSlot,
  retryDelayMs,
  type JobHandler,
  type JobObserver,
} from './job-context';
import type { JobsOptions, RegisterOptions } from './job-options';
import { claimOf, type ClaimedRow } from './job-statements';

/** A job's handler and how it was registered (`Jobs.register`). */
export interface RegisteredJob {
  handler: JobHandler;
  options: RegisterOptions;
}

/** What the run of one claimed job uses of its runner (jobs.ts). */
export interface JobRunDeps {
  db: Db;
  now: () => Date;
  leaseMs: number;
  /** Aborted when the runner stops waiting for its jobs. */
  stopped: AbortSignal;
  observer: JobObserver | null;
  log: NonNullable<JobsOptions['log']>;
}

/**
 * Runs one job this server claimed: renews its lease while it runs (a lost lease aborts its
 * signal), then records its end only while the claim still holds: a recurring job moves to its next
 * slot, a one-off is deleted, a failure retries later or, out of attempts, is given up.
 */
export async function runClaimedJob(
  deps: JobRunDeps,
  registered: RegisteredJob,
  row: ClaimedRow,
): Promise<void> {
  const { token } = row;
  const scheduledFor = new Date(row.run_at);
  const lost = new AbortController();
  const signal = AbortSignal.any([lost.signal, deps.stopped]);
  const claim = claimOf(row.id, token);
  const renew = setInterval(
    () => {
      const until = new Date(deps.now().getTime() + deps.leaseMs);
      rowsOf(deps.db, claim.renew(until)).then(
        (renewed) => {
          if (renewed.length === 0) lost.abort();
        },
        () => {},
      );
    },
    Math.max(1000, deps.leaseMs / 3),
  );
  renew.unref();
  const every = row.interval_ms;
  const slotAfter = (time: Date) =>
    registered.options.at ? registered.options.at(time) : nextSlot(scheduledFor, every!, time);
  const done = (now: Date) => (every ? claim.moveTo(slotAfter(now)) : claim.remove());
  let ended = false;
  const once = async <T>(work: (tx: Db) => Promise<T>): Promise<T> => {
    if (ended) throw new Error(`Job ${row.name}: once() runs once per run`);
    const result = await deps.db.transaction(async (tx) => {
      // The job's row stays locked until the commit: a server whose claim on it runs meanwhile
      // skips it, and one whose claim came first has changed locked_by.
      const held = await rowsOf(tx, claim.lock());
      if (held.length === 0) throw new LeaseLostError(row.name);
      const value = await work(tx);
      await tx.execute(done(deps.now()));
      return value;
    });
    ended = true;
    return result;
  };
  let failure: unknown = null;
  const started = deps.now();
  try {
    await registered.handler({
      id: row.id,
      name: row.name,
      payload: row.payload,
      attempt: row.attempts,
      scheduledFor,
      now: started,
      signal,
      once,
    });
  } catch (error) {
    failure = error;
  } finally {
    clearInterval(renew);
  }
  deps.observer?.(row.name, started.getTime() - scheduledFor.getTime(), failure !== null);
  // Ended inside once(), or taken over by another server: nothing is left to record here.
  if (ended) return;
  if (failure instanceof LeaseLostError) {
    deps.log.info({ job: row.name, id: row.id }, 'job taken over by another server');
    return;
  }
  const now = deps.now();
  let finish: SQL;
  if (failure === null) {
    finish = done(now);
  } else {
    const message = failure instanceof Error ? failure.message : String(failure);
    deps.log.warn({ err: failure, job: row.name, attempt: row.attempts }, 'job failed');
    if (!every && row.attempts >= row.max_attempts) {
      finish = claim.giveUp(now, message);
      deps.log.error({ job: row.name, id: row.id }, 'job given up');
    } else {
      let retryAt = new Date(now.getTime() + retryDelayMs(row.attempts));
      if (every) {
        const next = slotAfter(now);
        if (next < retryAt) retryAt = next;
      }
      finish = claim.retryAt(retryAt, message);
    }
  }
  try {
    await deps.db.execute(finish);
  } catch (error) {
    // The lease expires and the job runs again: at least once, never lost.
    deps.log.error({ err: error, job: row.name }, 'could not record the end of a job');
  }
}
