import { sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { rowsOf } from '../db/rows';

/** What one counted attempt came to. */
export interface Hit {
  /** False when `max` attempts were already counted in the window: this one was not counted. */
  allowed: boolean;
  /** Attempts counted in the window, this one included when allowed. */
  count: number;
  /** When the window ends (ms since the epoch). */
  resetAt: number;
  /** Gives the attempt back (a sign-in that succeeded counts no failure); a no-op when refused. */
  release(): Promise<void>;
}

export interface LimitStore {
  /** Counts one attempt on `key` unless `max` were already counted in its fixed window. */
  take(key: string, max: number, windowMs: number): Promise<Hit>;
  /** Deletes the counters whose window is over; answers how many. */
  sweep(): Promise<number>;
}

export type Clock = () => number;

const noop = async () => {};

/** Counters in this process only: the fallback while the database does not answer, and unit tests. */
export function createMemoryStore(clock: Clock = Date.now): LimitStore {
  const counters = new Map<string, { windowStart: number; count: number; expiresAt: number }>();
  return {
    async take(key, max, windowMs) {
      const now = clock();
      let counter = counters.get(key);
      if (!counter || counter.expiresAt <= now) {
        counter = { windowStart: now, count: 0, expiresAt: now + windowMs };
        counters.set(key, counter);
      }
      if (counter.count >= max) {
        return { allowed: false, count: counter.count, resetAt: counter.expiresAt, release: noop };
      }
      counter.count += 1;
      const taken = counter;
      return {
        allowed: true,
        count: taken.count,
        resetAt: taken.expiresAt,
        release: async () => {
          if (counters.get(key) === taken && taken.count > 0) taken.count -= 1;
        },
      };
    },
    async sweep() {
      const now = clock();
      let deleted = 0;
      for (const [key, counter] of counters) {
        if (counter.expiresAt <= now) {
          counters.delete(key);
          deleted += 1;
        }
      }
      return deleted;
    },
  };
}

/**
 * Counters in the `rate_limits` table (migration 0007), shared by every app server on the database.
 * One statement counts an attempt: an upsert that starts a new window when the old one is over and
 * adds one only while the count is under `max`, so concurrent attempts never count past it.
 */
export function createDatabaseStore(db: Db, clock: Clock = Date.now): LimitStore {
  return {
    async take(key, max, windowMs) {
      const now = clock();
      const [row] = await rowsOf<{ count: number; window_start: number; expires_at: number }>(
        db,
        sql`
        INSERT INTO rate_limits AS r (key, window_start, count, expires_at)
        VALUES (${key}, ${now}, 1, ${now + windowMs})
        ON CONFLICT (key) DO UPDATE SET
          window_start = CASE WHEN r.expires_at <= ${now} THEN ${now} ELSE r.window_start END,
          count = CASE WHEN r.expires_at <= ${now} THEN 1 ELSE r.count + 1 END,
          expires_at = CASE WHEN r.expires_at <= ${now} THEN ${now + windowMs} ELSE r.expires_at END
        WHERE r.expires_at <= ${now} OR r.count < ${max}
        RETURNING count, window_start::float8 AS window_start, expires_at::float8 AS expires_at
      `,
      );
      if (row) {
        const windowStart = Number(row.window_start);
        return {
          allowed: true,
          count: Number(row.count),
          resetAt: Number(row.expires_at),
          release: async () => {
            await db.execute(sql`
              UPDATE rate_limits SET count = count - 1
              WHERE key = ${key} AND window_start = ${windowStart} AND count > 0
            `);
          },
        };
      }
      const [existing] = await rowsOf<{ count: number; expires_at: number }>(
        db,
        sql`
        SELECT count, expires_at::float8 AS expires_at FROM rate_limits WHERE key = ${key}
      `,
      );
      return {
        allowed: false,
        count: Number(existing?.count ?? max),
        resetAt: Number(existing?.expires_at ?? now + windowMs),
        release: noop,
      };
    },
    async sweep() {
      const deleted = await rowsOf<{ key: string }>(
        db,
        sql`
        DELETE FROM rate_limits WHERE expires_at <= ${clock()} RETURNING key
      `,
      );
      return deleted.length;
    },
  };
}

export interface FallbackOptions {
  clock?: Clock;
  /** How long the in-memory counters stand in after a database error before the database is tried again. */
  retryAfterMs?: number;
  /** Told once per outage. */
  onUnavailable?: (error: unknown) => void;
  onRecovered?: () => void;
}

/**
 * The database store, falling back to in-memory counters for a moment when the database does not
 * answer: the limits keep holding (per server) instead of every limited route failing.
 */
export function withMemoryFallback(
  primary: LimitStore,
  options: FallbackOptions = {},
): LimitStore & { readonly degraded: boolean } {
  const clock = options.clock ?? Date.now;
  const retryAfterMs = options.retryAfterMs ?? 30_000;
  const memory = createMemoryStore(clock);
  let fallbackUntil = 0;
  let degraded = false;

  async function run<T>(useDatabase: () => Promise<T>, useMemory: () => Promise<T>): Promise<T> {
    if (degraded && clock() < fallbackUntil) return useMemory();
    try {
      const result = await useDatabase();
      if (degraded) {
        degraded = false;
        options.onRecovered?.();
      }
      return result;
    } catch (error) {
      if (!degraded) options.onUnavailable?.(error);
      degraded = true;
      fallbackUntil = clock() + retryAfterMs;
      return useMemory();
    }
  }

  return {
    get degraded() {
      return degraded;
    },
    take: (key, max, windowMs) =>
      run(
        async () => {
          const hit = await primary.take(key, max, windowMs);
          // A failed give-back only leaves one attempt counted: never worth failing the request.
          return { ...hit, release: () => hit.release().catch(() => {}) };
        },
        () => memory.take(key, max, windowMs),
      ),
    sweep: async () => (await run(primary.sweep, async () => 0)) + (await memory.sweep()),
  };
}
