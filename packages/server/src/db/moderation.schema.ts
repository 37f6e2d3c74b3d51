import { sql } from 'drizzle-orm';
import { REPORT_REASONS } from '@campus-books/common/constants';
import { MODERATION_ACTIONS } from '@campus-books/common/moderation.schemas';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, users, listings } from './schema';

/** Students' reports of listings (features/moderation, migration 0012): one per student and listing. */
export const listingReports = pgTable(
  'listing_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason', { enum: REPORT_REASONS }).notNull(),
    note: text('note'),
    createdAt: createdAt(),
    /** A moderator dealt with it: out of the queue and of the count that hides a listing. */
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /**
     * Whether it counts toward the automatic hide (decision 016): the reporter's account was verified
     * and old enough, and within its daily number of such reports. Every report reaches the queue.
     */
    countsTowardHide: boolean('counts_toward_hide').notNull().default(true),
  },
  (t) => [
    uniqueIndex('listing_reports_listing_reporter_key').on(t.listingId, t.reporterId),
    index('listing_reports_open_idx')
      .on(t.createdAt)
      .where(sql`${t.resolvedAt} IS NULL`),
  ],
);

/**
 * Every moderator action; append-only (a trigger refuses UPDATE and DELETE, migration 0012). No
 * foreign keys: the record outlives the accounts and listings it names.
 */
export const moderationLog = pgTable(
  'moderation_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    moderatorId: uuid('moderator_id'),
    moderatorEmail: text('moderator_email').notNull(),
    action: text('action', { enum: MODERATION_ACTIONS }).notNull(),
    listingId: uuid('listing_id'),
    /** A rating's removal or dismissed reports (features/ratings). */
    ratingId: uuid('rating_id'),
    /** A reported conversation read, or whose reports were dismissed (features/conversations). */
    conversationId: uuid('conversation_id'),
    userId: uuid('user_id'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('moderation_log_created_idx').on(t.createdAt.desc())],
);
