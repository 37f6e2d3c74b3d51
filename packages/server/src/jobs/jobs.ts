import { randomUUID } from 'node:crypto';
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
import type {
  EnqueueOptions,
  JobScope,
  JobsDatabase,
  JobsOptions,
  RegisterOptions,
} from './job-options';
import {
  claimStatement,
  deferMissedSlotsStatement,
  enqueueStatement,
  scheduleStatement,
  claimOf,
  JOBS_CHANNEL,
  type ClaimedRow,
} from './job-statements';

const DEFAULT_LEASE_MS = 5 * 60_000;
const DEFAULT_POLL_MS = 5_000;
const STOP_WAIT_MS = 30_000;

/**
 * Jobs on the database, for one app server among several (docs/decisions/006). A due job is claimed
 * by one server (`FOR UPDATE SKIP LOCKED`) for a lease; the server renews the lease while the job
 * runs, and finishes the job only if its claim still holds, so a job whose server died runs again
 * once the lease expired, and never twice at once while its server lives. A failure retries with
 * a growing delay. A recurring schedule is one row per job name, moved to its next slot after each run.
 */
export class Jobs {
  readonly #handlers = new Map<string, { handler: JobHandler; options: RegisterOptions }>();
  readonly #now: () => Date;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #concurrency: number;
  readonly #startDelayMs: number;
  readonly #scopes: readonly JobScope[];
  readonly #log: NonNullable<JobsOptions['log']>;
  #started = false;
  #stopping = false;
  #stop = new AbortController();
  #timer: NodeJS.Timeout | null = null;
  #unlisten: (() => Promise<void>)[] = [];
  #pass: Promise<number> | null = null;
  #again = false;
  #observer: JobObserver | null = null;

  constructor(
    private readonly database: JobsDatabase,
    options: JobsOptions = {},
  ) {
    this.#now = options.now ?? (() => new Date());
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.#concurrency = options.concurrency ?? 4;
    this.#startDelayMs = options.startDelayMs ?? 0;
    this.#scopes = options.scopes ?? [{ key: '', run: (work) => work() }];
    const quiet = () => {};
    this.#log = options.log ?? { info: quiet, warn: quiet, error: quiet };
  }

  /** The jobs' clock: features whose rules depend on time read it too (tests move it). */
  now(): Date {
    return this.#now();
  }

  /**
   * Says how to run the jobs named `name`; with `every`, also schedules it (one run per slot across
   * all servers, the first one `every` from the first server's start).
   */
  register<P = unknown>(name: string, handler: JobHandler<P>, options: RegisterOptions = {}): void {
    if (this.#handlers.has(name)) throw new Error(`Job ${name} is registered twice`);
    this.#handlers.set(name, { handler: handler as JobHandler, options });
    if (this.#started && options.every) {
      const { every, at } = options;
      for (const scope of this.#scopes) {
        scope
          .run(() => this.#schedule(name, every, at))
          .catch((error: unknown) =>
            this.#log.error(
              { err: error, job: name, campus: scope.key },
              'could not schedule a job',
            ),
          );
      }
    }
  }

  /** One listener of every run's end (the metrics); replaces the previous one. */
  observe(observer: JobObserver | null): void {
    this.#observer = observer;
  }

  /**
   * Runs `work` in each scope's context in turn (every campus's, for a job whose rule spans them:
   * the image sweep's shared storage); the answers in the scopes' order.
   */
  async inEveryScope<T>(work: () => Promise<T>): Promise<T[]> {
    const answers: T[] = [];
    for (const scope of this.#scopes) answers.push(await scope.run(work));
    return answers;
  }

  /** Adds a one-off job; false when a pending job already has this key. */
  async enqueue(
    name: string,
    payload: unknown = {},
    options: EnqueueOptions = {},
  ): Promise<boolean> {
    const db = options.db ?? this.database.db;
    const runAt = options.runAt ?? this.#now();
    const added = await rowsOf(
      db,
      enqueueStatement(name, payload, {
        key: options.key ?? null,
        runAt,
        maxAttempts: options.maxAttempts ?? 10,
      }),
    );
    return added.length > 0;
  }

  /**
   * Schedules the recurring jobs (in each scope, at its calendar: a campus's digest at its own hour),
   * then polls (and listens for enqueues) until `stop()`.
   */
  async start({ poll = true }: { poll?: boolean } = {}): Promise<void> {
    this.#started = true;
    for (const scope of this.#scopes) {
      await scope.run(async () => {
        for (const [name, { options }] of this.#handlers) {
          if (options.every) await this.#schedule(name, options.every, options.at);
        }
      });
    }
    if (!poll) return;
    // Missed recurring runs wait until the server has warmed up (docs/performance.md, start-up).
    if (this.#startDelayMs > 0) {
      for (const scope of this.#scopes) await scope.run(() => this.#deferMissedSlots());
    }
    // One LISTEN per PostgreSQL server (its one listening connection), whatever its campuses: an
    // enqueue's NOTIFY wakes one pass over every scope.
    const listens = new Set(this.#scopes.map((scope) => scope.listen ?? this.database.listen));
    for (const listen of listens) {
      try {
        this.#unlisten.push(
          await listen(
            JOBS_CHANNEL,
            (name) => {
              if (this.#handlers.has(name)) this.#wake();
            },
            () => this.#wake(),
          ),
        );
      } catch (error) {
        this.#log.warn({ err: error }, 'jobs: no notifications, polling only');
      }
    }
    if (this.#startDelayMs === 0) return this.#tick();
    this.#timer = setTimeout(() => this.#tick(), this.#startDelayMs).unref();
  }

  /**
   * Moves the recurring slots missed while every server was down (overdue now) to the first look
   * (start-up). A slot that is not yet due is left alone: in a cluster, another server runs it on
   * time, and a restart of one server must not delay everyone's recurring jobs.
   */
  async #deferMissedSlots(): Promise<void> {
    const keys = [...this.#handlers]
      .filter(([, { options }]) => options.every)
      .map(([name]) => `every:${name}`);
    if (keys.length === 0) return;
    const now = this.#now();
    const firstLook = new Date(now.getTime() + this.#startDelayMs);
    await this.database.db.execute(deferMissedSlotsStatement(keys, now, firstLook));
  }

  /** Stops polling and waits (a while) for the jobs this server runs. */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#timer) clearTimeout(this.#timer);
    await Promise.all(this.#unlisten.splice(0).map((unlisten) => unlisten().catch(() => {})));
    const pass = this.#pass;
    if (!pass) return;
    const waited = await Promise.race([
      pass.then(
        () => true,
        () => true,
      ),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_WAIT_MS).unref()),
    ]);
    if (!waited) {
      this.#log.warn({}, 'jobs still running at shutdown: their leases will hand them over');
      this.#stop.abort();
    }
  }

  /**
   * Claims and runs due jobs until none is left, scope after scope (each in its context); the number
   * run. The poll loop calls it; tests call it after moving the clock. A call while a pass runs
   * makes that pass look again. A scope whose jobs cannot be claimed (its schema unreachable) is
   * logged and the pass goes on to the next.
   */
  runDue(): Promise<number> {
    if (this.#pass) {
      this.#again = true;
      return this.#pass;
    }
    const pass = (async () => {
      let ran = 0;
      do {
        this.#again = false;
        for (const scope of this.#scopes) {
          if (this.#stopping) return ran;
          if (scope.paused?.()) continue; // its campus is being moved: its jobs wait
          try {
            ran += await scope.run(() => this.#drain());
          } catch (error) {
            if (this.#scopes.length === 1) throw error;
            this.#log.error({ err: error, campus: scope.key }, 'jobs: claiming failed');
          }
        }
      } while (this.#again);
      return ran;
    })();
    this.#pass = pass;
    const clear = () => {
      if (this.#pass === pass) this.#pass = null;
    };
    pass.then(clear, clear);
    return pass;
  }

  /** Claims and runs the due jobs of the scope at hand until none is left. */
  async #drain(): Promise<number> {
    let ran = 0;
    let claimed: ClaimedRow[];
    do {
      if (this.#stopping) return ran;
      claimed = await this.#claim(this.#concurrency);
      await Promise.all(claimed.map((row) => this.#run(row)));
      ran += claimed.length;
    } while (claimed.length > 0);
    return ran;
  }

  #tick(): void {
    if (this.#stopping) return;
    this.runDue()
      .catch((error: unknown) => this.#log.error({ err: error }, 'jobs: claiming failed'))
      .finally(() => {
        if (this.#stopping) return;
        if (this.#timer) clearTimeout(this.#timer);
        this.#timer = setTimeout(() => this.#tick(), this.#pollMs);
        this.#timer.unref();
      });
  }

  #wake(): void {
    if (this.#stopping) return;
    if (this.#pass) this.#again = true;
    else this.#tick();
  }

  async #schedule(name: string, everyMs: number, at?: (after: Date) => Date): Promise<void> {
    await this.database.db.execute(scheduleStatement(name, everyMs, this.#now(), at));
  }

  async #claim(limit: number): Promise<ClaimedRow[]> {
    const names = [...this.#handlers.keys()];
    if (names.length === 0 || limit <= 0) return [];
    const token = randomUUID();
    const claimed = await rowsOf<Omit<ClaimedRow, 'token'>>(
      this.database.db,
      claimStatement({ names, now: this.#now(), leaseMs: this.#leaseMs, limit, token }),
    );
    return claimed.map((row) => ({ ...row, token }));
  }

  async #run(row: ClaimedRow): Promise<void> {
    const { token } = row;
    const registered = this.#handlers.get(row.name)!;
    const scheduledFor = new Date(row.run_at);
    const lost = new AbortController();
    const signal = AbortSignal.any([lost.signal, this.#stop.signal]);
    const claim = claimOf(row.id, token);
    const renew = setInterval(
      () => {
        const until = new Date(this.#now().getTime() + this.#leaseMs);
        rowsOf(this.database.db, claim.renew(until)).then(
          (renewed) => {
            if (renewed.length === 0) lost.abort();
          },
          () => {},
        );
      },
      Math.max(1000, this.#leaseMs / 3),
    );
    renew.unref();
    const every = row.interval_ms;
    const slotAfter = (time: Date) =>
      registered.options.at ? registered.options.at(time) : nextSlot(scheduledFor, every!, time);
    const done = (now: Date) => (every ? claim.moveTo(slotAfter(now)) : claim.remove());
    let ended = false;
    const once = async <T>(work: (tx: Db) => Promise<T>): Promise<T> => {
      if (ended) throw new Error(`Job ${row.name}: once() runs once per run`);
      const result = await this.database.db.transaction(async (tx) => {
        // The job's row stays locked until the commit: a server whose claim on it runs meanwhile
        // skips it, and one whose claim came first has changed locked_by.
        const held = await rowsOf(tx, claim.lock());
        if (held.length === 0) throw new LeaseLostError(row.name);
        const value = await work(tx);
        await tx.execute(done(this.#now()));
        return value;
      });
      ended = true;
      return result;
    };
    let failure: unknown = null;
    const started = this.#now();
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
    this.#observer?.(row.name, started.getTime() - scheduledFor.getTime(), failure !== null);
    // Ended inside once(), or taken over by another server: nothing is left to record here.
    if (ended) return;
    if (failure instanceof LeaseLostError) {
      this.#log.info({ job: row.name, id: row.id }, 'job taken over by another server');
      return;
    }
    const now = this.#now();
    let finish: SQL;
    if (failure === null) {
      finish = done(now);
    } else {
      const message = failure instanceof Error ? failure.message : String(failure);
      this.#log.warn({ err: failure, job: row.name, attempt: row.attempts }, 'job failed');
      if (!every && row.attempts >= row.max_attempts) {
        finish = claim.giveUp(now, message);
        this.#log.error({ job: row.name, id: row.id }, 'job given up');
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
      await this.database.db.execute(finish);
    } catch (error) {
      // The lease expires and the job runs again: at least once, never lost.
      this.#log.error({ err: error, job: row.name }, 'could not record the end of a job');
    }
  }
}
