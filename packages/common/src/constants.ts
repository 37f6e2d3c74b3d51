/** Business constants of spec section 9 and the product decisions. */

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 12;
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

export const BANNER_DURATION_MS = 3000;
export const RESET_REDIRECT_DELAY_MS = 2000;

export const DEFAULT_GROUPME_LINK_PREFIX = 'https://groupme.com/';

export const CONDITIONS = ['mint', 'excellent', 'good', 'poor'] as const;
export type Condition = (typeof CONDITIONS)[number];

export const LISTING_TYPES = ['sale', 'rent'] as const;
export type ListingType = (typeof LISTING_TYPES)[number];

export const LISTING_STATUSES = ['active', 'sold'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

/** Upload chunk size of the resumable upload protocol (spec section 9: 256 KB). */
export const UPLOAD_CHUNK_BYTES = 256 * 1024;
