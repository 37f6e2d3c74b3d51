/** Business constants of spec section 9 and the product decisions. */

export const PASSWORD_MIN_LENGTH = 8;
/**
 * Long enough for a password manager's or a passphrase (NIST SP 800-63B asks for at least 64), and
 * bounded: argon2 reads the password once, so its cost hardly moves below this bound.
 */
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 62;
export const TEXT_MAX_LENGTH = 2000;
export const SHORT_TEXT_MAX_LENGTH = 200;
export const PRICE_MIN = 0;
export const PRICE_MAX = 10_000_000;
export const COMMUNITY_FEE = 0;

export const MAX_IMAGES_ON_CREATE = 3;
export const MAX_IMAGES_PER_LISTING = 6;
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

export const PAGE_SIZE = 9;
export const MAX_PAGE_SIZE = 50;
export const HOME_RECENT_COUNT = 4;
/** The listing page's "Other copies on campus": the same ISBN's listings, asked for up to this many. */
export const OTHER_COPIES_LIMIT = 20;

export const BANNER_DURATION_MS = 3000;
export const RESET_REDIRECT_DELAY_MS = 2000;

export const CONDITIONS = ['mint', 'excellent', 'good', 'poor'] as const;
export type Condition = (typeof CONDITIONS)[number];

export const LISTING_TYPES = ['sale', 'rent'] as const;
export type ListingType = (typeof LISTING_TYPES)[number];

/** What a search's `type` and `status` parameters accept (the search schema and the search page's URL). */
export const SEARCH_TYPES = [...LISTING_TYPES, 'all'] as const;
export const SEARCH_STATUSES = ['active_or_none', 'active'] as const;

/**
 * `expired`: not confirmed in time (its seller relists it); `hidden`: reported by several students or
 * its seller suspended, until a moderator looks; `removed`: by a moderator. Only `active` is searched.
 */
export const LISTING_STATUSES = ['active', 'sold', 'expired', 'hidden', 'removed'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];
/**
 * What anyone may read: a `hidden` or `removed` listing is "not found" for everyone but its seller
 * and the moderators, on every route, page and mail (the server's visibility rule, docs/security.md).
 * A listing its seller deleted while reported is kept `hidden` (or `removed`) with `seller_deleted_at`
 * set, which the rule keeps from its seller too: the moderators' only.
 */
export const PUBLIC_LISTING_STATUSES: readonly ListingStatus[] = ['active', 'sold', 'expired'];

/** Upload chunk size of the resumable upload protocol (spec section 9: 256 KB). */
export const UPLOAD_CHUNK_BYTES = 256 * 1024;

/** Days a listing stays up before it expires unless its seller confirms it (LISTING_LIFETIME_DAYS). */
export const DEFAULT_LISTING_LIFETIME_DAYS = 60;

/**
 * What each reason a student may report for is called: the reasons for a listing and for a
 * conversation (moderation.schemas.ts), which share some.
 */
export const REPORT_REASON_LABELS = {
  spam_or_scam: 'Spam or scam',
  not_a_textbook: 'Not a textbook',
  offensive: 'Offensive',
  already_sold: 'Already sold',
  harassment: 'Harassment or threats',
  other: 'Other',
} as const;
export type AnyReportReason = keyof typeof REPORT_REASON_LABELS;

/** Why a student reports a listing (POST /api/reports/{listingId}). */
export const REPORT_REASONS = [
  'spam_or_scam',
  'not_a_textbook',
  'offensive',
  'already_sold',
  'other',
] as const satisfies readonly AnyReportReason[];
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_NOTE_MAX = 1000;

/** Header of a search's answer: how many listings the whole search matches, counted up to a cap. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';
/** Header of a search's answer, `true` when more listings match than X-Total-Count (the cap) says. */
export const TOTAL_COUNT_CAPPED_HEADER = 'X-Total-Count-Capped';
