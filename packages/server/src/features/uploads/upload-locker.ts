import { randomUUID } from 'node:crypto';
import type { Lock, Locker, RequestRelease } from '@tus/server';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { errorBody } from '../../lib/errors';

export interface UploadLockerOptions {
  /** How long a lock holds without renewal (a server that died loses its locks after this). */
  leaseMs?: number;
  /** How long `lock()` waits before giving up (423, LOCK_TIMEOUT). */
  acquireTimeoutMs?: number;
  /** How often a waiting `lock()` tries again when no release notification came. */
  retryMs?: number;
  /** The clock (tests move it). */
  now?: () => Date;
}

/**
 * What tus answers when the lock did not come in time (tus throws `{status_code, body}`; ours is the
 * API's error shape). Types only from @tus/server: the upload stack loads on the first upload.
 */
export const LOCK_TIMEOUT = {
  status_code: 423,
  body: JSON.stringify(errorBody(423, 'This upload is busy on another request: try again')),
};

const RELEASE_REQUESTED = 'upload_lock_release';
const RELEASED = 'upload_lock_released';

const ts = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * The tus `Locker` of every app server (docs/decisions/006): one request at a time may write an
 * upload, whichever server it reached. A lock is a row of `upload_locks` with a lease, renewed while
 * the request runs, so a server that died frees its uploads once the lease expired; no database
 * connection is held for the request. A request that finds the upload locked asks the holder to
 * let go (NOTIFY; the holding server calls tus's `requestRelease`, which ends the old request, as
 * tus's MemoryLocker does within one process) and takes the lock once it is released.
 */
export class DatabaseLocker implements Locker {
  readonly leaseMs: number;
  readonly acquireTimeoutMs: number;
  readonly retryMs: number;
  readonly now: () => Date;
  /** Locks this server holds: upload id → how to ask its request to stop. */
  readonly held = new Map<string, RequestRelease>();
  /** Requests of this server waiting for an upload: woken when some server releases it. */
  readonly waiting = new Map<string, Set<() => void>>();
  #listening: Promise<void> | null = null;
  readonly #unlisten: (() => Promise<void>)[] = [];

  constructor(
    readonly database: Database,
    options: UploadLockerOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? 30_000;
    this.retryMs = options.retryMs ?? 200;
    this.now = options.now ?? (() => new Date());
  }

  newLock(id: string): Lock {
    return new DatabaseLock(this, id);
  }

  /** Listens for release requests and releases, once (on the first lock). */
  listen(): Promise<void> {
    this.#listening ??= (async () => {
      this.#unlisten.push(
        await this.database.listen(RELEASE_REQUESTED, (id) => void this.held.get(id)?.()),
        await this.database.listen(RELEASED, (id) => this.wake(id)),
      );
    })().catch(() => {
      this.#listening = null; // waiters fall back to retrying every retryMs
    });
    return this.#listening;
  }

  wake(id: string): void {
    for (const wake of this.waiting.get(id) ?? []) wake();
  }

  async notify(channel: 'request' | 'released', id: string): Promise<void> {
    await this.database.db.execute(
      sql`SELECT pg_notify(${channel === 'request' ? RELEASE_REQUESTED : RELEASED}, ${id})`,
    );
  }

  async close(): Promise<void> {
    await Promise.all(this.#unlisten.splice(0).map((unlisten) => unlisten().catch(() => {})));
    this.#listening = null;
  }
}

class DatabaseLock implements Lock {
  readonly #token = randomUUID();
  #renewal: NodeJS.Timeout | null = null;

  constructor(
    private readonly locker: DatabaseLocker,
    private readonly id: string,
  ) {}

  async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const { locker, id } = this;
    await locker.listen();
    const deadline = Date.now() + locker.acquireTimeoutMs;
    let asked = false;
    let wake = () => {};
    const onAbort = () => wake();
    stopSignal.addEventListener('abort', onAbort);
    let waiters = locker.waiting.get(id);
    if (!waiters) locker.waiting.set(id, (waiters = new Set()));
    const waiter = () => wake();
    waiters.add(waiter);
    try {
      for (;;) {
        if (stopSignal.aborted || Date.now() >= deadline) throw LOCK_TIMEOUT;
        // Armed before trying, so a release between the try and the wait is not missed.
        const woken = new Promise<void>((resolve) => (wake = resolve));
        if (await this.#tryAcquire()) {
          locker.held.set(id, requestRelease);
          this.#renewal = setInterval(() => void this.#renew(), locker.leaseMs / 3);
          this.#renewal.unref();
          return;
        }
        if (!asked) {
          asked = true;
          await locker.notify('request', id);
        }
        // A release (NOTIFY, or this server's own unlock) wakes this at once; else retry shortly.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          woken,
          new Promise<void>((resolve) => (timer = setTimeout(resolve, locker.retryMs))),
        ]);
        clearTimeout(timer);
      }
    } finally {
      stopSignal.removeEventListener('abort', onAbort);
      waiters.delete(waiter);
      if (waiters.size === 0 && locker.waiting.get(id) === waiters) locker.waiting.delete(id);
    }
  }

  async unlock(): Promise<void> {
    const { locker, id } = this;
    if (this.#renewal) clearInterval(this.#renewal);
    this.#renewal = null;
    if (locker.held.get(id) !== undefined) locker.held.delete(id);
    await locker.database.db.execute(
      sql`DELETE FROM upload_locks WHERE upload_id = ${id} AND holder = ${this.#token}`,
    );
    locker.wake(id); // waiters of this server
    await locker.notify('released', id).catch(() => {}); // and of the others
  }

  /** Takes the row if it is free or its lease expired. */
  async #tryAcquire(): Promise<boolean> {
    const now = this.locker.now();
    const until = new Date(now.getTime() + this.locker.leaseMs);
    const acquired = await rowsOf(
      this.locker.database.db,
      sql`
      INSERT INTO upload_locks (upload_id, holder, expires_at)
      VALUES (${this.id}, ${this.#token}, ${ts(until)})
      ON CONFLICT (upload_id) DO UPDATE
        SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
        WHERE upload_locks.expires_at <= ${ts(now)}
      RETURNING holder`,
    );
    return acquired.length > 0;
  }

  async #renew(): Promise<void> {
    const until = new Date(this.locker.now().getTime() + this.locker.leaseMs);
    await this.locker.database.db
      .execute(
        sql`UPDATE upload_locks SET expires_at = ${ts(until)}
          WHERE upload_id = ${this.id} AND holder = ${this.#token}`,
      )
      .catch(() => {}); // the next renewal tries again; the lease covers two misses
  }
}
