import type { FastifyInstance } from 'fastify';

const DAY_MS = 24 * 60 * 60_000;
/** A term end closer than this is skipped: a listing made the week before gets the next term. */
const TERM_END_MARGIN_MS = 7 * DAY_MS;

/**
 * When a listing confirmed at `now` expires: the next end of term (when the campus names them, at
 * least a week away), else LISTING_LIFETIME_DAYS from now.
 */
export function expiryFrom(app: FastifyInstance, now: Date): Date {
  const { termEnds, listingLifetimeDays } = app.config.trust;
  const termEnd = termEnds.find((end) => end.getTime() - now.getTime() >= TERM_END_MARGIN_MS);
  return termEnd ?? new Date(now.getTime() + listingLifetimeDays * DAY_MS);
}

/** The freshness of a listing its seller confirms now (create, relist, "Still available"). */
export function freshListing(app: FastifyInstance): { expiresAt: Date; confirmedAt: Date } {
  const now = app.jobs.now();
  return { expiresAt: expiryFrom(app, now), confirmedAt: now };
}
