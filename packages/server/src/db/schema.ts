import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const createdAt = () =>
  timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    username: text('username').notNull(),
    /** Always stored lower-case. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    groupmelink: text('groupmelink').notNull(),
    avatar: text('avatar'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** A new address that replaces `email` once its verification link is used. */
    pendingEmail: text('pending_email'),
    /** Set by a moderator: cannot sign in or list, listings hidden (migration 0012). */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    /** Mails about saved listings (price drop, sold); the mails' one-click unsubscribe clears it. */
    savedListingMails: boolean('saved_listing_mails').notNull().default(true),
    /** Mails about unread messages (features/conversations); the mails' unsubscribe clears it. */
    messageMails: boolean('message_mails').notNull().default(true),
    /** Read receipts ("Seen"): off, the student's reads are not shown, and they see none either. */
    readReceipts: boolean('read_receipts').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), index('users_avatar_idx').on(t.avatar)],
);

/** Server-side sessions: the signed cookie names one; deleting the row revokes it. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export interface SignupClaim {
  passwordHash: string;
  firstName: string;
  lastName: string;
  username: string;
  groupmelink: string;
}

/** Single-use e-mailed tokens; only a SHA-256 hash of the token is stored. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password'] }).notNull(),
    /** The address the token verifies (sign-up or e-mail change). */
    email: text('email'),
    /**
     * On a link mailed to a sign-up that met an existing unverified account: that sign-up's
     * password hash and names, set on the account when the link is used (decision 008).
     */
    signupClaim: jsonb('signup_claim').$type<SignupClaim>(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('email_tokens_user_id_idx').on(t.userId, t.purpose)],
);

export const listings = pgTable(
  'listings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * The seller; NULL only on a listing kept for the moderators after its seller deleted their
     * account while it was reported (`sellerDeletedAt` set, issue 26).
     */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    /** The words of the name as the search matches them (function of migration 0005). */
    nameWords: text('name_words')
      .array()
      .generatedAlwaysAs(sql`public.listing_name_word_array(name)`),
    courseNumber: text('course_number').notNull(),
    description: text('description').notNull().default(''),
    address: text('address').notNull().default(''),
    pickupLocation: text('pickup_location'),
    condition: text('condition', { enum: ['mint', 'excellent', 'good', 'poor'] }).notNull(),
    regularPrice: numeric('regular_price', { precision: 12, scale: 2, mode: 'number' }).notNull(),
    discountPrice: numeric('discount_price', { precision: 12, scale: 2, mode: 'number' })
      .notNull()
      .default(0),
    imageUrls: text('image_urls')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Keys of the campus's schools (its configuration's schools[].key), in the campus's order. */
    schools: text('schools')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    major: text('major').notNull().default(''),
    type: text('type', { enum: ['sale', 'rent'] })
      .notNull()
      .default('sale'),
    status: text('status', { enum: ['active', 'sold', 'expired', 'hidden', 'removed'] })
      .notNull()
      .default('active'),
    soldAt: timestamp('sold_at', { withTimezone: true }),
    /** The create request's Idempotency-Key, if it sent one: one listing per key and owner. */
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The book, as its ISBN-13 (migration 0011). */
    isbn: text('isbn'),
    authors: text('authors'),
    edition: text('edition'),
    /** A subject code of the campus (its configuration's subjects[].code): "ECON" of "ECON 101". */
    subject: text('subject'),
    /** Which of imageUrls is the publisher's cover (imported from a book provider), if any. */
    publisherCoverUrl: text('publisher_cover_url'),
    /** When the listing leaves search unless confirmed (listing-expiry.ts, migration 0012). */
    expiresAt: timestamp('expires_at', { withTimezone: true })
      .notNull()
      .default(sql`now() + interval '60 days'`),
    /** When the seller last said it is still available (creation, relist, "Still available"). */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull().defaultNow(),
    reminded7dAt: timestamp('reminded_7d_at', { withTimezone: true }),
    reminded1dAt: timestamp('reminded_1d_at', { withTimezone: true }),
    /** Why a 'hidden' listing is hidden: 'reports' or 'suspension'. */
    hiddenReason: text('hidden_reason', { enum: ['reports', 'suspension'] }),
    /**
     * The listing's answer as JSON text, written by the database on every insert and update (a
     * trigger that db/listing-json-trigger.ts keeps in step with the code, migration 0014): what the search
     * sends for this row. Never written by the code.
     */
    listingJson: text('listing_json'),
    /**
     * The hold of an accepted offer (features/conversations, migration 0017): the buyer it is kept
     * for, until when, and the accepted offer. All three are set together or all NULL; the listing
     * answer says `pendingUntil`.
     */
    heldFor: uuid('held_for').references(() => users.id, { onDelete: 'set null' }),
    heldUntil: timestamp('held_until', { withTimezone: true }),
    holdOfferId: uuid('hold_offer_id'),
    /** Who bought a sold listing, when the seller said (one of the students who wrote about it). */
    soldTo: uuid('sold_to').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The seller deleted it while it was reported, hidden or removed (issue 26, migration 0024): kept
     * for the moderators only, as if deleted for everyone else, until they decide.
     */
    sellerDeletedAt: timestamp('seller_deleted_at', { withTimezone: true }),
    /** The seller asked the moderators to look at a listing that reports hid (first in the queue). */
    reviewRequestedAt: timestamp('review_requested_at', { withTimezone: true }),
  },
  (t) => [
    // NULLs are distinct: creates without the header never collide (migration 0010).
    uniqueIndex('listings_user_idempotency_key').on(t.userId, t.idempotencyKey),
    index('listings_isbn_idx').on(t.isbn),
    index('listings_active_expires_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'active'`),
    index('listings_subject_course_idx').on(t.subject, t.courseNumber, t.status),
    index('listings_status_created_idx').on(t.status, t.createdAt.desc(), t.id),
    index('listings_status_price_idx').on(t.status, t.regularPrice, t.id),
    index('listings_user_idx').on(t.userId, t.createdAt.desc()),
    index('listings_major_idx').on(t.major),
    // No index on schools: a school flag holds 2-70 % of the listings, so walking the date, price,
    // major or course index and filtering stops early; a GIN index on it let the planner AND a 14 %
    // bitmap into a major search once fresh statistics made the plans cost alike (8 ms, not 0.2).
    index('listings_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    // A search term's words are matched against the words of the name (features/search/terms.ts).
    index('listings_name_words_idx').using('gin', t.nameWords),
    // A major narrows the catalogue most; these serve it with either sort (docs/performance.md).
    index('listings_major_status_price_idx').on(t.major, t.status, t.regularPrice, t.id),
    index('listings_major_status_created_idx').on(t.major, t.status, t.createdAt.desc(), t.id),
    // A course number is as narrow: its listings newest first, without walking the whole date index.
    index('listings_course_status_created_idx').on(
      t.courseNumber,
      t.status,
      t.createdAt.desc(),
      t.id,
    ),
    // Releasing an image asks whether any listing still shows it (images.service.ts notReferenced).
    index('listings_image_urls_idx').using('gin', t.imageUrls),
    check('listings_price_range', sql`${t.regularPrice} >= 0 AND ${t.regularPrice} <= 10000000`),
    check('listings_image_count', sql`cardinality(${t.imageUrls}) <= 6`),
  ],
);

/**
 * The vocabulary of listing names: each distinct lower-case word of 3+ letters or digits, with the
 * number of listings whose name holds it. A search term's words are resolved against it (trigram
 * similarity on a few thousand words, not on every listing) before the listings are searched. Kept
 * by triggers on listings (migration 0004), so every writer keeps it, and a word goes with its last
 * listing. Derived data: backups leave it out and a restore rebuilds it.
 */
export const listingWords = pgTable(
  'listing_words',
  {
    word: text('word').primaryKey(),
    listings: integer('listings').notNull(),
  },
  (t) => [index('listing_words_trgm_idx').using('gin', sql`${t.word} gin_trgm_ops`)],
);

/**
 * What the book providers answered per ISBN-13 (features/books): a hit is kept, a miss (`found`
 * false) is asked again after a day. A campus asks a provider once per book.
 */
export const books = pgTable('books', {
  isbn: text('isbn').primaryKey(),
  found: boolean('found').notNull(),
  title: text('title'),
  authors: text('authors'),
  edition: text('edition'),
  publisher: text('publisher'),
  year: integer('year'),
  coverUrl: text('cover_url'),
  provider: text('provider'),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
});

export type BookRow = typeof books.$inferSelect;

export type UserRow = typeof users.$inferSelect;
export type ListingRow = typeof listings.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

/**
 * Uploaded images. The row is created when a tus upload starts (status `uploading`), is `processing`
 * from the moment one request claims its finish, becomes `ready` once processed into WebP variants,
 * `attached` once a listing or avatar uses it (`in_message` once a message carries it: never reused,
 * and served only to the conversation), and `deleting` while its files are removed. The owner
 * is SET NULL on account deletion, not cascaded: the row is the only record of the files in storage,
 * so it must outlive the user until the sweep has deleted them.
 */
export const images = pgTable(
  'images',
  {
    id: uuid('id').primaryKey(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', {
      enum: ['uploading', 'processing', 'ready', 'attached', 'in_message', 'deleting'],
    })
      .notNull()
      .default('uploading'),
    /** Bytes of the upload as received. */
    bytes: integer('bytes').notNull().default(0),
    /** Size of the processed full-size variant. */
    width: integer('width'),
    height: integer('height'),
    createdAt: createdAt(),
    attachedAt: timestamp('attached_at', { withTimezone: true }),
  },
  (t) => [
    index('images_owner_created_idx').on(t.ownerId, t.createdAt),
    index('images_status_created_idx').on(t.status, t.createdAt),
  ],
);

export type ImageRow = typeof images.$inferSelect;
