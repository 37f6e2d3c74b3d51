import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './schema';

/**
 * "Sell my shelf" (features/shelf, migration 0020): a seller's listings in the making. The id is made
 * by the device, so saving a draft twice (a retry, a second tab) writes one row. `fields` are the
 * form's values as typed (checked in full only when published); `image_urls` are the seller's own
 * uploads, kept out of the unattached-image sweep while a draft holds them.
 */
export const listingDrafts = pgTable(
  'listing_drafts',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fields: jsonb('fields').$type<Record<string, unknown>>().notNull(),
    imageUrls: text('image_urls')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Set while a "Publish all" works on the draft: copies of the request leave it to that one. */
    publishingAt: timestamp('publishing_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('listing_drafts_user_id_idx').on(t.userId, t.createdAt),
    index('listing_drafts_image_urls_idx').using('gin', t.imageUrls),
  ],
);

export type ListingDraftRow = typeof listingDrafts.$inferSelect;

/** Students who asked for the end-of-term mail (off until they turn it on in their profile). */
export const termEndMailSubscribers = pgTable('term_end_mail_subscribers', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One row per student and term end mailed: the insert that claims it is what makes it once. */
export const termEndMailsSent = pgTable(
  'term_end_mails_sent',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    termEnd: date('term_end').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    /** False while claimed but not yet handed to the mailer (a crash retries it). */
    delivered: boolean('delivered').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.userId, t.termEnd] })],
);
