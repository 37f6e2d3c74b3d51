/**
 * Every query key of the web app. Keys are prefixes of one another where a change must refetch a
 * group: every list of listings (search, recent additions, a user's own, other copies) starts with
 * 'listings', one listing with 'listing', so `invalidateListings` refreshes them all with two prefixes.
 * (Loaded on the home page's first load: keep it free of imports.)
 */
export const queryKeys = {
  listings: {
    all: ['listings'] as const,
    search: (query: Record<string, string>) => ['listings', 'search', query] as const,
    recent: ['listings', 'recent'] as const,
    user: (userId: string) => ['listings', 'user', userId] as const,
    sameIsbn: (isbn13: string) => ['listings', 'same-isbn', isbn13] as const,
  },
  listing: {
    all: ['listing'] as const,
    one: (listingId: string) => ['listing', listingId] as const,
  },
  listingLink: (token: string) => ['listing-link', token] as const,
  seller: (sellerId: string) => ['seller', sellerId] as const,
  saved: ['saved'] as const,
  alerts: ['alerts'] as const,
  demand: (query: string | null) => ['demand', query] as const,
  mostWanted: ['most-wanted'] as const,
  course: {
    one: (code: string) => ['course', code.toUpperCase()] as const,
    titlePrices: (course: string | null, title: string) =>
      ['course', course, 'prices', title.toLowerCase()] as const,
  },
  bookPrices: (isbn13: string) => ['books', isbn13, 'prices'] as const,
  moderation: {
    all: ['moderation'] as const,
    queue: ['moderation', 'queue'] as const,
    log: ['moderation', 'log'] as const,
  },
  publicConfig: ['public-config'] as const,
};
