import { z } from 'zod';
import { apiSchemas } from './api';

/**
 * One offer for several books (issue 44): a buyer's offer may name other listings of the same
 * seller, offered for together with the conversation's own listing for one amount. Accepting holds
 * every book of the set for the buyer, or none.
 */

/** The other listings one offer may add to the conversation's own. */
export const MAX_OFFER_SET_EXTRA = 8;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const OFFER_SET_MESSAGES = {
  notAnId: 'listingIds are the ids of the seller’s other listings',
  tooMany: `An offer adds at most ${MAX_OFFER_SET_EXTRA} other listings`,
  twice: 'The same listing is in the offer twice',
  ownListingListed:
    'The conversation’s listing is always in the offer: listingIds name only the others',
  counterKeepsSet: 'A counter-offer keeps the buyer’s set of books: send only the amount',
  aboveSetPrice: 'An offer cannot be above the price of its books together',
  notFound: (id: string) => `Listing ${id} was not found`,
  notSellers: (title: string) => `“${title}” is not sold by this seller`,
  held: (title: string) => `“${title}” is on hold for another buyer`,
  heldForYou: (title: string) => `“${title}” is already on hold for you`,
  sold: (title: string) => `“${title}” is sold`,
  closed: (title: string) => `“${title}” is not for sale any more`,
} as const;

/** POST /api/conversations/{id}/offers' `listingIds`: the seller's other listings in the offer. */
export const offerListingIdsSchema = z
  .array(z.string({ error: OFFER_SET_MESSAGES.notAnId }).regex(UUID, OFFER_SET_MESSAGES.notAnId), {
    error: OFFER_SET_MESSAGES.notAnId,
  })
  .max(MAX_OFFER_SET_EXTRA, OFFER_SET_MESSAGES.tooMany)
  .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, {
    message: OFFER_SET_MESSAGES.twice,
  })
  .optional()
  .describe(
    `Up to ${MAX_OFFER_SET_EXTRA} other listings of the same seller offered for together with the conversation’s listing (the buyer’s offer only; a counter-offer keeps the set)`,
  );

/** What an offer's set shows of each of its books. */
export const OFFER_LISTING_STATUSES = ['active', 'sold', 'expired', 'unavailable'] as const;

/** One book of an offer's set. */
export const offerListingSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    price: z.number().nullable().describe('null when unavailable'),
    status: z
      .enum(OFFER_LISTING_STATUSES)
      .describe('unavailable: hidden, removed or deleted; only the title shows'),
  })
  .register(apiSchemas, { id: 'OfferListing' });
export type OfferListing = z.infer<typeof offerListingSchema>;

/** An offer's books, the conversation's own listing first ([] for events that are not offers). */
export const offerListingsSchema = z
  .array(offerListingSchema)
  .describe(
    'The books of the offer, the conversation’s listing first (one for a single-book offer; [] for events that are not offers)',
  );

/** GET /api/conversations/{id}/bundle-candidates: the seller's other listings for a set. */
export const bundleCandidateSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    price: z.number(),
    courses: z.array(z.string()).describe('The courses of the book: its own, and the bookstore’s'),
    suggested: z
      .boolean()
      .describe('Shares a course with the conversation’s listing (or the page’s, from a listing)'),
    available: z.boolean().describe('Can be added to an offer now'),
    reason: z.string().nullable().describe('Why it cannot (on hold, sold, hidden), else null'),
  })
  .register(apiSchemas, { id: 'BundleCandidate' });
export type BundleCandidate = z.infer<typeof bundleCandidateSchema>;

export const bundleCandidatesSchema = z.object({
  listings: z
    .array(bundleCandidateSchema)
    .describe('Suggested first, then available first, newest first'),
});
export type BundleCandidates = z.infer<typeof bundleCandidatesSchema>;

/** Why a candidate cannot be added (`reason`). */
export const BUNDLE_REASONS = {
  held: 'On hold for another buyer',
  heldForYou: 'Already on hold for this buyer',
  sold: 'Sold',
  expired: 'No longer for sale',
  hidden: 'Hidden from search',
} as const;
