import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  CONVERSATION_EVENT_KINDS,
  OFFER_STATUSES,
} from '@campus-books/common/conversation.schemas';
import { MAX_MESSAGE_PHOTOS } from '@campus-books/common/message-photos';
import { CONVERSATION_REPORT_REASONS } from '@campus-books/common/moderation.schemas';
import { listings, users } from './schema';

/**
 * A buyer's conversation with a listing's seller (features/conversations, migration 0017): one per
 * listing and buyer. The participants are SET NULL when an account is deleted (the other side keeps
 * the thread, "deleted account"); `listingName` keeps the title once the listing itself is deleted.
 * `lastEventId`/`lastEventAt` and each side's read mark are kept by the events' trigger.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    listingId: uuid('listing_id').references(() => listings.id, { onDelete: 'set null' }),
    listingName: text('listing_name').notNull(),
    sellerId: uuid('seller_id').references(() => users.id, { onDelete: 'set null' }),
    buyerId: uuid('buyer_id').references(() => users.id, { onDelete: 'set null' }),
    lastEventId: bigint('last_event_id', { mode: 'number' }).notNull().default(0),
    lastEventAt: timestamp('last_event_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last event each side has seen: later ones are unread. */
    sellerReadId: bigint('seller_read_id', { mode: 'number' }).notNull().default(0),
    buyerReadId: bigint('buyer_read_id', { mode: 'number' }).notNull().default(0),
    /** When each side last moved its read mark by reading (the other's "Seen" time). */
    sellerReadAt: timestamp('seller_read_at', { withTimezone: true }),
    buyerReadAt: timestamp('buyer_read_at', { withTimezone: true }),
    /**
     * The last event each side was mailed about (features/conversations/message-mails.ts): no
     * other mail while it is above their read mark.
     */
    sellerMailedId: bigint('seller_mailed_id', { mode: 'number' }).notNull().default(0),
    buyerMailedId: bigint('buyer_mailed_id', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // NULLs are distinct: conversations of a deleted listing or buyer never collide.
    uniqueIndex('conversations_listing_buyer_key').on(t.listingId, t.buyerId),
    index('conversations_seller_idx').on(t.sellerId, t.lastEventAt.desc()),
    index('conversations_buyer_idx').on(t.buyerId, t.lastEventAt.desc()),
  ],
);

/**
 * Everything said or done in a conversation, in order: messages, offers and their answers, and the
 * system lines of the listing's changes (the listings trigger of migration 0017 writes those). The
 * id is global and only grows: a live stream resumes after the last id it delivered.
 */
export const conversationEvents = pgTable(
  'conversation_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: CONVERSATION_EVENT_KINDS }).notNull(),
    /** The student who wrote or did it; NULL for the system's lines and for a deleted account. */
    senderId: uuid('sender_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body'),
    /** An offer's amount (whole dollars), or the new price of a `price` line. */
    amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }),
    offerId: uuid('offer_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The event's place in the live streams: given at commit, in commit order (a deferred trigger
     * under a lock, migration 0017), so a stream that resumes after a seq misses nothing. NULL only
     * inside the writing transaction.
     */
    seq: bigint('seq', { mode: 'number' }),
    /** The sending device's id for this message: a second send with it makes no second message. */
    clientId: text('client_id'),
    /**
     * A message's photos (images in status `in_message`, at most MAX_MESSAGE_PHOTOS), in order;
     * served only to the two participants (features/conversations/message-photos.routes.ts).
     */
    photoIds: uuid('photo_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
  },
  (t) => [
    index('conversation_events_conversation_idx').on(t.conversationId, t.id),
    // NULLs are distinct: system lines and messages sent without a client id never collide.
    uniqueIndex('conversation_events_sender_client_key').on(t.senderId, t.clientId),
    uniqueIndex('conversation_events_seq_key').on(t.seq),
    check(
      'conversation_events_photo_count',
      sql`cardinality(${t.photoIds}) <= ${sql.raw(String(MAX_MESSAGE_PHOTOS))}`,
    ),
  ],
);

/** Offers in a conversation; at most one is open at a time (a counter-offer closes the other). */
export const offers = pgTable(
  'offers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    fromId: uuid('from_id').references(() => users.id, { onDelete: 'set null' }),
    amount: integer('amount').notNull(),
    status: text('status', { enum: OFFER_STATUSES }).notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('offers_one_open_key')
      .on(t.conversationId)
      .where(sql`${t.status} = 'open'`),
    check('offers_amount_range', sql`${t.amount} >= 0 AND ${t.amount} <= 10000000`),
  ],
);

/**
 * The books of an offer for several (issue 44, migration 0031): every listing of the set, the
 * conversation's own at position 0. An offer for the conversation's listing alone has no rows.
 */
export const offerListings = pgTable(
  'offer_listings',
  {
    offerId: uuid('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'cascade' }),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.offerId, t.listingId] }),
    index('offer_listings_listing_idx').on(t.listingId),
  ],
);
export type OfferListingRow = typeof offerListings.$inferSelect;

/** A student's blocks: neither side may then open or write in a conversation with the other. */
export const userBlocks = pgTable(
  'user_blocks',
  {
    blockerId: uuid('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: uuid('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index('user_blocks_blocked_idx').on(t.blockedId),
  ],
);

/**
 * A participant's report of a conversation (issue 28): once per reporter and conversation. While one
 * is open, the campus moderators may read the conversation (each read goes to the audit log).
 */
export const conversationReports = pgTable(
  'conversation_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason', { enum: CONVERSATION_REPORT_REASONS }).notNull(),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** A moderator dismissed it: out of the queue, and the conversation is private again. */
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('conversation_reports_conversation_reporter_key').on(
      t.conversationId,
      t.reporterId,
    ),
    index('conversation_reports_open_idx')
      .on(t.createdAt)
      .where(sql`${t.resolvedAt} IS NULL`),
  ],
);

export type ConversationRow = typeof conversations.$inferSelect;
export type ConversationEventRow = typeof conversationEvents.$inferSelect;
export type OfferRow = typeof offers.$inferSelect;
