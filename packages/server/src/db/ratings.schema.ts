import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { MEETUP_STATUSES } from '@campus-books/common/meetup.schemas';
import { RATING_TAGS } from '@campus-books/common/rating.schemas';
import { conversations } from './conversations.schema';
import { listings, users } from './schema';

/**
 * A recorded exchange (features/ratings, issue 29): a listing sold to a named student. A trigger on
 * `listings` writes it when a seller marks a listing sold to a buyer (migration 0021), so every way
 * of selling records it; the two students may then rate it. The names are kept once the listing or
 * an account is gone.
 */
export const exchanges = pgTable(
  'exchanges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    listingId: uuid('listing_id').references(() => listings.id, { onDelete: 'set null' }),
    listingName: text('listing_name').notNull(),
    sellerId: uuid('seller_id').references(() => users.id, { onDelete: 'set null' }),
    buyerId: uuid('buyer_id').references(() => users.id, { onDelete: 'set null' }),
    soldAt: timestamp('sold_at', { withTimezone: true }).notNull().defaultNow(),
    /** When both were asked to rate it (the rating-prompts job mails once). */
    promptedAt: timestamp('prompted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('exchanges_listing_buyer_key').on(t.listingId, t.buyerId),
    index('exchanges_seller_idx').on(t.sellerId),
    index('exchanges_buyer_idx').on(t.buyerId),
    index('exchanges_unprompted_idx')
      .on(t.soldAt)
      .where(sql`${t.promptedAt} IS NULL`),
  ],
);

/** One student's rating of an exchange: once per exchange and rater (the unique key). */
export const ratings = pgTable(
  'ratings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    exchangeId: uuid('exchange_id')
      .notNull()
      .references(() => exchanges.id, { onDelete: 'cascade' }),
    raterId: uuid('rater_id').references(() => users.id, { onDelete: 'set null' }),
    rateeId: uuid('ratee_id').references(() => users.id, { onDelete: 'set null' }),
    raterRole: text('rater_role', { enum: ['buyer', 'seller'] }).notNull(),
    positive: boolean('positive').notNull(),
    tags: text('tags', { enum: RATING_TAGS })
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    comment: text('comment'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Removed by a moderator: hidden everywhere, kept for the audit log. */
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('ratings_exchange_rater_key').on(t.exchangeId, t.raterRole),
    index('ratings_ratee_idx').on(t.rateeId),
    index('ratings_rater_idx').on(t.raterId),
  ],
);

/** A student's report of a rating, until a moderator removes the rating or dismisses the reports. */
export const ratingReports = pgTable(
  'rating_reports',
  {
    ratingId: uuid('rating_id')
      .notNull()
      .references(() => ratings.id, { onDelete: 'cascade' }),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ratingId, t.reporterId] })],
);

/** A meetup suggested in a conversation: a campus spot and a time, accepted by the other side. */
export const meetups = pgTable(
  'meetups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    proposerId: uuid('proposer_id').references(() => users.id, { onDelete: 'set null' }),
    spotId: text('spot_id').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: MEETUP_STATUSES }).notNull().default('proposed'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('meetups_conversation_idx').on(t.conversationId, t.createdAt),
    uniqueIndex('meetups_one_proposed_key')
      .on(t.conversationId)
      .where(sql`${t.status} = 'proposed'`),
  ],
);

export type ExchangeRow = typeof exchanges.$inferSelect;
export type RatingRow = typeof ratings.$inferSelect;
export type MeetupRow = typeof meetups.$inferSelect;
