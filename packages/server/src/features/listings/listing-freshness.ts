import type { TrustConfig } from '../../config/config';

const DAY_MS = 24 * 60 * 60_000;
/** A term end closer than this is skipped: a listing made the week before gets the next term. */
const TERM_END_MARGIN_MS = 7 * DAY_MS;

/**
 * When a listing confirmed at `now` expires: the next end of term (when the campus names them, at
 * least a week away; the day's end on the campus's clocks), else LISTING_LIFETIME_DAYS from now.
 */
export function expiryFrom(
  { termEnds, listingLifetimeDays }: Pick<TrustConfig, 'termEnds' | 'listingLifetimeDays'>,
  now: Date,
): Date {
  const termEnd = termEnds.find(
    ({ endsAt }) => endsAt.getTime() - now.getTime() >= TERM_END_MARGIN_MS,
  );
  return termEnd?.endsAt ?? new Date(now.getTime() + listingLifetimeDays * DAY_MS);
}

/** The freshness of a listing its seller confirms now (create, relist, "Still available"). */
export function freshListing(
  trust: Pick<TrustConfig, 'termEnds' | 'listingLifetimeDays'>,
  now: Date,
): { expiresAt: Date; confirmedAt: Date } {
  return { expiresAt: expiryFrom(trust, now), confirmedAt: now };
}
