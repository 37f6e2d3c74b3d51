import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

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
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    /** Flags of the campus's schools (campus.ts SCHOOLS[].flag). */
    schools: text('schools')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    major: text('major').notNull().default(''),
    type: text('type', { enum: ['sale', 'rent'] })
      .notNull()
      .default('sale'),
    status: text('status', { enum: ['active', 'sold'] })
      .notNull()
      .default('active'),
    soldAt: timestamp('sold_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('listings_status_created_idx').on(t.status, t.createdAt.desc(), t.id),
    index('listings_status_price_idx').on(t.status, t.regularPrice, t.id),
    index('listings_user_idx').on(t.userId, t.createdAt.desc()),
    index('listings_major_idx').on(t.major),
    // No index on schools: a school flag holds 2-70 % of the listings, so walking the date, price,
    // major or course index and filtering stops early; a GIN index on it let the planner AND a 14 %
    // bitmap into a major search once fresh statistics made the plans cost alike (8 ms, not 0.2).
    index('listings_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    // A search term's words are matched against the words of the name (listings.search.ts).
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

export type UserRow = typeof users.$inferSelect;
export type ListingRow = typeof listings.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

/**
 * Uploaded images. The row is created when a tus upload starts (status `uploading`), becomes `ready`
 * once processed into WebP variants, `attached` once a listing or avatar uses it, and `deleting` while
 * its files are removed. The owner is SET NULL on account deletion, not cascaded: the row is the only
 * record of the files in storage, so it must outlive the user until the sweep has deleted them.
 */
export const images = pgTable(
  'images',
  {
    id: uuid('id').primaryKey(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['uploading', 'ready', 'attached', 'deleting'] })
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
