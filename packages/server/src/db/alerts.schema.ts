import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { Condition } from '@campus-books/common/constants';
import { createdAt, listings, updatedAt, users } from './schema';

/**
 * A student's standing search (migration 0013): every criterion set must match a new listing.
 * `termWords` are the search term's words, each of which the listing's name must contain.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    searchTerm: text('search_term'),
    termWords: text('term_words').array(),
    isbn: text('isbn'),
    subject: text('subject'),
    courseNumber: text('course_number'),
    major: text('major'),
    condition: text('condition').$type<Condition>(),
    /** A key of the campus's schools (its configuration's schools[].key). */
    school: text('school'),
    maxPrice: numeric('max_price', { precision: 12, scale: 2, mode: 'number' }),
    digest: boolean('digest').notNull().default(false),
    paused: boolean('paused').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('alerts_user_idx').on(t.userId),
    // One alert per student and filters (issue 26 item 5): what `filtersKey` compares, with `NULL`
    // read as "not set" so two unset filters are equal; `term_words` is stored sorted and distinct.
    uniqueIndex('alerts_same_filters').on(
      t.userId,
      sql`coalesce(term_words, '{}'::text[])`,
      sql`coalesce(isbn, '')`,
      sql`coalesce(subject, '')`,
      sql`coalesce(course_number, '')`,
      sql`coalesce(major, '')`,
      sql`coalesce(condition, '')`,
      sql`coalesce(school, '')`,
      sql`coalesce(max_price, -1)`,
    ),
    index('alerts_isbn_idx')
      .on(t.isbn)
      .where(sql`NOT ${t.paused}`),
    index('alerts_course_idx')
      .on(t.subject, t.courseNumber)
      .where(sql`NOT ${t.paused}`),
  ],
);

export type AlertRow = typeof alerts.$inferSelect;

/**
 * The outbox of alert and saved-listing mails: one row per student, listing and event (`alert`,
 * `sold`, `price:<amount>`), so nothing is mailed twice; a sender claims rows, mails, marks them sent.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    alertId: uuid('alert_id').references(() => alerts.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    digest: boolean('digest').notNull().default(false),
    claimedBy: uuid('claimed_by'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('alert_deliveries_once').on(t.userId, t.listingId, t.event),
    index('alert_deliveries_pending_idx')
      .on(t.userId)
      .where(sql`${t.sentAt} IS NULL`),
  ],
);
