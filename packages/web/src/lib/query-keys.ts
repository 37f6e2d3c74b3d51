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
  savedMails: ['saved-mails'] as const,
  termEndMail: ['term-end-mail'] as const,
  alerts: ['alerts'] as const,
  demand: (query: string | null) => ['demand', query] as const,
  mostWanted: ['most-wanted'] as const,
  course: {
    one: (code: string) => ['course', code.toUpperCase()] as const,
    titlePrices: (course: string | null, title: string) =>
      ['course', course, 'prices', title.toLowerCase()] as const,
  },
  myCourses: {
    all: ['my-courses'] as const,
    list: ['my-courses', 'list'] as const,
    books: (courses: string) => ['my-courses', 'books', courses] as const,
    suggest: (subject: string | null, number: string) =>
      ['my-courses', 'suggest', subject, number] as const,
  },
  bookPrices: (isbn13: string) => ['books', isbn13, 'prices'] as const,
  moderation: {
    all: ['moderation'] as const,
    queue: ['moderation', 'queue'] as const,
    log: ['moderation', 'log'] as const,
    conversations: ['moderation', 'conversations'] as const,
    statistics: (weeks: number) => ['moderation', 'statistics', weeks] as const,
  },
  /** Everything about conversations: a live event refreshes the lot with this one prefix. */
  conversations: {
    all: ['conversations'] as const,
    /** Every inbox list (whatever listing it is filtered to). */
    lists: ['conversations', 'list'] as const,
    list: (listingId?: string) => ['conversations', 'list', listingId ?? null] as const,
    one: (conversationId: string) => ['conversations', 'one', conversationId] as const,
    /** The seller's other listings a buyer may add to one offer (refreshed by every live event). */
    bundleCandidates: (conversationId: string) =>
      ['conversations', 'bundle-candidates', conversationId] as const,
    /** The same, from a listing's page or its seller's profile, before any conversation. */
    listingBundleCandidates: (listingId: string) =>
      ['conversations', 'listing-bundle-candidates', listingId] as const,
    unread: ['conversations', 'unread'] as const,
  },
  blocks: ['blocks'] as const,
  messageMails: ['message-mails'] as const,
  readReceipts: ['read-receipts'] as const,
  /** What reaches the student: per kind mail and push, quiet hours (issue 44). */
  notifications: ['notifications'] as const,
  /**
   * A reported conversation a moderator opened: outside the moderation prefix on purpose, so an
   * action's refresh never reads it again (each read goes to the audit log).
   */
  moderatorRead: (conversationId: string) => ['moderator-read', conversationId] as const,
  /** Recorded exchanges and their ratings, and public profiles (issue 29). */
  ratings: {
    all: ['ratings'] as const,
    exchanges: ['ratings', 'exchanges'] as const,
    profile: (userId: string) => ['ratings', 'profile', userId] as const,
    reported: ['ratings', 'reported'] as const,
  },
  meetups: (conversationId: string) => ['meetups', conversationId] as const,
  publicConfig: ['public-config'] as const,
  privacy: ['privacy'] as const,
  /** A first sign-on's last step (single sign-on). */
  ssoPending: ['sso-pending'] as const,
};
