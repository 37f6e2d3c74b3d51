import type { Db } from '../db/db-type';

/** A job as its handler sees it, and the runner's arithmetic of retries and recurring slots (jobs.ts). */

/** What a job's handler gets. */
export interface JobContext<P = unknown> {
  id: string;
  name: string;
  payload: P;
  /** 1 on the first run, counting runs whose server died. */
  attempt: number;
  /** When the job was due (a recurring job's slot). */
  scheduledFor: Date;
  /** The clock's time when this run started. */
  now: Date;
  /** Aborted when the server stops or the lease was lost to another server. */
  signal: AbortSignal;
  /**
   * Runs `work` in one transaction with this run's end (a recurring job moves to its next slot, a
   * one-off job is gone), and only while this server still holds the job: a server killed before the
   * commit leaves neither, a run whose lease went to another server commits nothing
   * (`LeaseLostError`). A job whose work is in the database does it once per slot this way, where a
   * plain handler runs at least once.
   */
  once<T>(work: (tx: Db) => Promise<T>): Promise<T>;
}

/** Thrown by `once` when another server took the job over (this server's lease had expired). */
export class LeaseLostError extends Error {
  constructor(name: string) {
    super(`Job ${name}: another server holds it now`);
    this.name = 'LeaseLostError';
  }
}

export type JobHandler<P = unknown> = (context: JobContext<P>) => Promise<void>;

/** Told of each run's end: how late it started after it was due, and whether it failed (metrics). */
export type JobObserver = (name: string, lagMs: number, failed: boolean) => void;

const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 60 * 60_000;

/** Delay before the next run of a job that failed `attempt` times: 30 s, 1 min, 2 min, … up to 1 h. */
export function retryDelayMs(attempt: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1), RETRY_MAX_MS);
}

/** The first slot of a recurring schedule after `now` (missed slots are skipped, not run late in a row). */
export function nextSlot(slot: Date, everyMs: number, now: Date): Date {
  const behind = now.getTime() - slot.getTime();
  const steps = behind < 0 ? 1 : Math.floor(behind / everyMs) + 1;
  return new Date(slot.getTime() + steps * everyMs);
}
