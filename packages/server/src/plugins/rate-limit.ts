import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  currentCampusWork,
  runInCampus,
  runOutsideCampus,
  type CampusWork,
} from '../campuses/campus-context';
import { AppError } from '../lib/errors';
import {
  createDatabaseStore,
  withMemoryFallback,
  type Clock,
  type Hit,
  type LimitStore,
} from './limit-store';

export interface LimitRule {
  /** Names the counter: two rules never share counts. */
  name: string;
  /** Attempts allowed per window. */
  max: number;
  /** What is counted: the client IP, an e-mail address, …; undefined counts nothing. */
  keyOf: (request: FastifyRequest) => string | undefined;
  /** The window's length; RATE_LIMIT_WINDOW_MINUTES when not given. */
  windowMs?: number;
}

export type LimitHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface Limits {
  /** Counts one attempt of `name` for `key` in the shared store (see LimitStore.take). */
  take(name: string, key: string, max: number, windowMs?: number): Promise<Hit>;
  store: LimitStore & { readonly degraded: boolean };
  /** Deletes the counters whose window is over, in every campus's table (the timer's; how many). */
  sweep(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** A hook that answers 429 once `rule.keyOf(request)` made more than `rule.max` attempts. */
    limitAttempts(rule: LimitRule): LimitHook;
    limits: Limits;
  }
}

/** Keyed by Fastify's request.ip, which reads X-Forwarded-For only when TRUST_PROXY=true. */
export const byIp = (request: FastifyRequest) => request.ip;

/** Keyed by the (already validated and lower-cased) e-mail of the body. */
export const byEmail = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined;
};

export function tooManyAttemptsMessage(ttlMs: number): string {
  const minutes = Math.max(1, Math.ceil(ttlMs / 60_000));
  return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** The 429 of a refused hit, with Retry-After in seconds. */
export function tooManyAttempts(reply: FastifyReply, hit: Hit, now = Date.now()): AppError {
  const ttl = Math.max(0, hit.resetAt - now);
  reply.header('retry-after', Math.max(1, Math.ceil(ttl / 1000)));
  return new AppError(429, tooManyAttemptsMessage(ttl));
}

/** '' outside any campus (a single-campus installation's keys are as they were), else `<schema>:`. */
function campusKeyPrefix(): string {
  const schema = currentCampusWork()?.schema;
  return schema ? `${schema}:` : '';
}

const SWEEP_INTERVAL_MS = 10 * 60_000;

export interface RateLimitOptions {
  /** Reads the time for every window (tests move it); Date.now by default. */
  clock?: Clock;
  /** A many-campus installation's campuses (decision 024): each has its own counters' table. */
  campuses?: readonly CampusWork[];
}

/**
 * Every attempt limit counts in one table of the database (docs/decisions/005-shared-rate-limits.md),
 * so N app servers allow the configured count, not N times it. When the database does not answer,
 * each server counts in memory for a moment (logged once) rather than failing the limited routes.
 */
export default fp(
  async function rateLimitPlugin(app: FastifyInstance, options: RateLimitOptions) {
    const clock: Clock = options.clock ?? (() => Date.now());
    const defaultWindowMs = app.config.rateLimits.windowMs;
    const store = withMemoryFallback(createDatabaseStore(app.database.db, clock), {
      clock,
      onUnavailable: (error) =>
        app.log.warn(
          { err: error },
          'rate limits: the database does not answer; counting in memory for now',
        ),
      onRecovered: () => app.log.info('rate limits: counting in the database again'),
    });

    const campuses = options.campuses ?? [];
    const limits: Limits = {
      store,
      sweep: async () => {
        let deleted = await runOutsideCampus(() => store.sweep());
        for (const campus of campuses) deleted += await runInCampus(campus, () => store.sweep());
        return deleted;
      },
      // A campus's counters carry its schema (decision 024): its own table already holds them, and
      // the in-memory fallback is the process's, shared by every campus.
      take: (name, key, max, windowMs = defaultWindowMs) =>
        store.take(`${campusKeyPrefix()}${name}:${key}`, max, windowMs),
    };
    app.decorate('limits', limits);

    app.decorate('limitAttempts', (rule: LimitRule): LimitHook => {
      return async (request, reply) => {
        const key = rule.keyOf(request);
        if (key === undefined) return;
        const hit = await limits.take(rule.name, key, rule.max, rule.windowMs);
        if (!hit.allowed) throw tooManyAttempts(reply, hit, clock());
      };
    });

    const timer = setInterval(() => {
      limits.sweep().catch(() => {});
    }, SWEEP_INTERVAL_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'rate-limit', dependencies: ['database'] },
);
