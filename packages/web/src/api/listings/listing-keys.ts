/**
 * Query keys of listing data. Every listing query key starts with 'listings' (search, recent, a user's
 * own) or 'listing' (one listing), so a change can invalidate them all with two prefixes.
 */
export const listingKeys = {
  all: ['listings'] as const,
  user: (userId: string) => ['listings', 'user', userId] as const,
  one: (listingId: string) => ['listing', listingId] as const,
};
