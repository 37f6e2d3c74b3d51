import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors';

export interface LimitRule {
  /** Names the counter: two rules never share counts. */
  name: string;
  /** Attempts allowed per window (the window is RATE_LIMIT_WINDOW_MINUTES). */
  max: number;
  /** What is counted: the client IP, an e-mail address, …; undefined counts nothing. */
  keyOf: (request: FastifyRequest) => string | undefined;
}

export type LimitHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** A hook that answers 429 once `rule.keyOf(request)` made more than `rule.max` attempts. */
    limitAttempts(rule: LimitRule): LimitHook;
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

/**
 * Per-route attempt limits on @fastify/rate-limit's counters. Its own route hook marks a request
 * as counted after the first rule, so a route with two rules (per IP and per account) calls its
 * manual limiter once per rule instead.
 */
export default fp(
  async function rateLimitPlugin(app: FastifyInstance) {
    await app.register(rateLimit, { global: false });
    const windowMs = app.config.rateLimits.windowMs;

    app.decorate('limitAttempts', (rule: LimitRule): LimitHook => {
      const check = app.createRateLimit({
        max: rule.max,
        timeWindow: windowMs,
        keyGenerator: (request) => `${rule.name}:${rule.keyOf(request)}`,
      });
      return async (request, reply) => {
        if (rule.keyOf(request) === undefined) return;
        const result = await check(request);
        if (result.isAllowed || !result.isExceeded) return;
        reply.header('retry-after', result.ttlInSeconds);
        throw new AppError(429, tooManyAttemptsMessage(result.ttl));
      };
    });
  },
  { name: 'rate-limit' },
);
