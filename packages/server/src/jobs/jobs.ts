import { randomUUID } from 'node:crypto';
import { rowsOf } from '../db/rows';
import type { JobHandler, JobObserver } from './job-context';
import type {
  EnqueueOptions,
  JobScope,
  JobsDatabase,
  JobsOptions,
  RegisterOptions,
} from './job-options';
import { runClaimedJob, type RegisteredJob } from './job-run';
import { JobScopeSet } from './job-scopes';
import {
  claimStatement,
  deferMissedSlotsStatement,
  enqueueStatement,
  nextDueStatement,
  parseJobNotice,
  scheduleStatement,
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
  readonly #handlers = new Map<string, RegisteredJob>();
  readonly #now: () => Date;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #concurrency: number;
  readonly #startDelayMs: number;
  readonly #idleScanMs: number;
  readonly #scopes: JobScopeSet;
  readonly #log: NonNullable<JobsOptions['log']>;
  #started = false;
  #stopping = false;
  #stop = new AbortController();
  #timer: NodeJS.Timeout | null = null;
  #unlisten: (() => Promise<void>)[] = [];
  /** The LISTENs (one per PostgreSQL server) this runner hears enqueues on, once it polls. */
  readonly #heard = new Set<JobsDatabase['listen']>();
  #polling = false;
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
    this.#idleScanMs = options.idleScanMs ?? this.#pollMs;
    this.#scopes = new JobScopeSet(options.scopes ?? [{ key: '', run: (work) => work() }]);
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
      for (const scope of this.#scopes.all) {
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
    for (const scope of this.#scopes.all) answers.push(await scope.run(work));
    return answers;
  }

  /**
   * Serves one more scope (a campus registered while running, decision 024): schedules its
   * recurring jobs, listens on its server if no scope did yet, and looks at its jobs.
   */
  async addScope(scope: JobScope): Promise<void> {
    if (!this.#scopes.add(scope)) return;
    if (!this.#started) return;
    await scope.run(() => this.#scheduleAll());
    await this.#listenOnServers();
    this.#wake(scope);
  }

  /** Stops serving a scope (a campus no longer registered); a run of its jobs under way ends. */
  removeScope(key: string): void {
    this.#scopes.remove(key);
  }

  /** A scope's server changed (a campus moved): its LISTEN is heard there, its jobs looked at. */
  async scopeMoved(key: string): Promise<void> {
    const scope = this.#scopes.byKey(key);
    if (!scope) return;
    await this.#listenOnServers();
    this.#wake(scope);
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
    for (const scope of this.#scopes.all) await scope.run(() => this.#scheduleAll());
    if (!poll) return;
    // Missed recurring runs wait until the server has warmed up (docs/performance.md, start-up).
    if (this.#startDelayMs > 0) {
      for (const scope of this.#scopes.all) await scope.run(() => this.#deferMissedSlots());
    }
    this.#polling = true;
    await this.#listenOnServers();
    if (this.#startDelayMs === 0) return this.#tick();
    this.#timer = setTimeout(() => this.#tick(), this.#startDelayMs).unref();
  }

  async #scheduleAll(): Promise<void> {
    for (const [name, { options }] of this.#handlers) {
      if (options.every) await this.#schedule(name, options.every, options.at);
    }
  }

  /**
   * One LISTEN per PostgreSQL server (its one listening connection), whatever its campuses, made
   * for the servers of scopes added or moved too: an enqueue's NOTIFY names its scope's schema and
   * wakes that scope only; a reconnection (NOTIFYs may have been lost meanwhile) wakes every one.
   */
  async #listenOnServers(): Promise<void> {
    if (!this.#polling || this.#stopping) return;
    for (const scope of this.#scopes.all) {
      const listen = scope.listen ?? this.database.listen;
      if (this.#heard.has(listen)) continue;
      this.#heard.add(listen);
      try {
        this.#unlisten.push(
          await listen(
            JOBS_CHANNEL,
            (payload) => {
              const { schema, name } = parseJobNotice(payload);
              if (!this.#handlers.has(name)) return;
              if (schema === undefined) return this.#wake();
              const woken = this.#scopes.bySchema(schema);
              if (woken) this.#wake(woken);
            },
            () => this.#wake(),
          ),
        );
      } catch (error) {
        this.#log.warn({ err: error }, 'jobs: no notifications, polling only');
      }
    }
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
   * Claims and runs due jobs until none is left, in every scope in turn (each in its context); the
   * number run. Tests call it after moving the clock. A call while a pass runs makes that pass look
   * again.
   */
  runDue(): Promise<number> {
    this.#scopes.wakeAll();
    return this.poll();
  }

  /**
   * What each poll does (every `pollMs`, and on an enqueue's NOTIFY): claims and runs the due jobs of
   * the scopes a NOTIFY named, of those whose next job is due by what their last look found, and
   * of every scope once per `idleScanMs` (job-scopes.ts); the number run. An idle runner so asks
   * nothing at most polls, whatever the number of campuses. A scope whose jobs cannot be claimed
   * (its schema unreachable) is logged and the pass goes on to the next.
   */
  poll(): Promise<number> {
    if (this.#pass) {
      this.#again = true;
      return this.#pass;
    }
    const pass = (async () => {
      let ran = 0;
      do {
        this.#again = false;
        for (const scope of this.#scopes.toVisit(this.#now().getTime(), this.#idleScanMs)) {
          if (this.#stopping) return ran;
          if (scope.paused?.()) {
            // Its campus is being moved: its jobs wait, looked at again once it is active.
            this.#scopes.wake(scope);
            continue;
          }
          try {
            ran += await scope.run(() => this.#visit(scope));
          } catch (error) {
            this.#scopes.forget(scope);
            if (this.#scopes.all.length === 1) throw error;
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

  /**
   * Looks at the scope at hand: when its next job is due, and if it is, claims and runs its due
   * jobs; remembers when its next one falls due.
   */
  async #visit(scope: JobScope): Promise<number> {
    const names = [...this.#handlers.keys()];
    if (names.length === 0) return 0;
    let due = await this.#nextDue(names);
    let ran = 0;
    if (due !== null && due <= this.#now().getTime()) {
      ran = await this.#drain();
      due = await this.#nextDue(names);
    }
    this.#scopes.remember(scope, due);
    return ran;
  }

  async #nextDue(names: string[]): Promise<number | null> {
    const [row] = await rowsOf<{ due: string | Date | null }>(
      this.database.db,
      nextDueStatement(names),
    );
    return row?.due ? new Date(row.due).getTime() : null;
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
    this.poll()
      .catch((error: unknown) => this.#log.error({ err: error }, 'jobs: claiming failed'))
      .finally(() => {
        if (this.#stopping) return;
        if (this.#timer) clearTimeout(this.#timer);
        this.#timer = setTimeout(() => this.#tick(), this.#pollMs);
        this.#timer.unref();
      });
  }

  /** An enqueue's NOTIFY: the scope it names (none named: every scope) is looked at now. */
  #wake(scope?: JobScope): void {
    if (this.#stopping) return;
    if (scope) this.#scopes.wake(scope);
    else this.#scopes.wakeAll();
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

  #run(row: ClaimedRow): Promise<void> {
    return runClaimedJob(
      {
        db: this.database.db,
        now: this.#now,
        leaseMs: this.#leaseMs,
        stopped: this.#stop.signal,
        observer: this.#observer,
        log: this.#log,
      },
      this.#handlers.get(row.name)!,
      row,
    );
  }
}
