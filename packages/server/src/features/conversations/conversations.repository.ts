import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { PUBLIC_LISTING_STATUSES } from '@campus-books/common/constants';
import {
  INBOX_PREVIEW_MAX_LENGTH,
  PHOTO_ONLY_PREVIEW,
  type ConversationEventKind,
} from '@campus-books/common/conversation.schemas';
import { currentCampusSchema } from '../../campuses/campus-context';
import { campusChannel } from '../../campuses/campus-schema';
import type { Db } from '../../db/database';
import {
  conversationEvents,
  conversations,
  type ConversationEventRow,
  type ConversationRow,
} from '../../db/conversations.schema';
import { rowsOf } from '../../db/rows';
import { participantRole, type DealRole } from '../../deal/deal';
import {
  bothShowReceiptsSql,
  isPartySql,
  otherColumnSql,
  otherPartySql,
  ownColumnSql,
  roleOfSql,
} from '../../deal/deal.sql';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path id can name a conversation at all; anything else is simply "not found". */
export const isConversationId = (id: string) => UUID.test(id);

/**
 * The one writer of `conversations` and `conversation_events`. (The events' trigger of migration
 * 0017 keeps each conversation's last event and its author's read mark; the listings' trigger writes
 * the system lines of a listing's changes.)
 */

/** The conversation, only when `userId` is one of its two participants. */
export async function findConversationOf(
  db: Db,
  id: string,
  userId: string,
): Promise<ConversationRow | undefined> {
  if (!isConversationId(id)) return undefined;
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), isPartySql('conversations', userId)));
  return row;
}

export async function findConversationByListingAndBuyer(
  db: Db,
  listingId: string,
  buyerId: string,
): Promise<ConversationRow | undefined> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.listingId, listingId), eq(conversations.buyerId, buyerId)));
  return row;
}

/**
 * The conversation of this listing and buyer, made now unless it exists: the unique index decides,
 * so parallel first messages (on any number of servers) make one conversation.
 */
export async function openConversation(
  db: Db,
  values: { listingId: string; listingName: string; sellerId: string; buyerId: string },
): Promise<{ conversation: ConversationRow; created: boolean }> {
  const [inserted] = await db
    .insert(conversations)
    .values(values)
    .onConflictDoNothing({ target: [conversations.listingId, conversations.buyerId] })
    .returning();
  if (inserted) return { conversation: inserted, created: true };
  const existing = await findConversationByListingAndBuyer(db, values.listingId, values.buyerId);
  if (!existing) throw new Error('conversation insert found neither a new nor an existing row');
  return { conversation: existing, created: false };
}

/** Locks the conversation's row until the transaction ends (offers are decided one at a time). */
export async function lockConversation(db: Db, id: string): Promise<void> {
  await db.execute(sql`SELECT 1 FROM conversations WHERE id = ${id} FOR UPDATE`);
}

export interface NewEvent {
  conversationId: string;
  kind: ConversationEventKind;
  senderId?: string | null;
  body?: string | null;
  amount?: number | null;
  offerId?: string | null;
}

export async function insertEvent(db: Db, event: NewEvent): Promise<ConversationEventRow> {
  const [row] = await db.insert(conversationEvents).values(event).returning();
  return row!;
}

/**
 * A student's message, once per client id: a second insert with the same sender and client id (a
 * double tap, a retry, on any server) makes nothing and answers the first (the unique index
 * decides, so parallel sends make one row). `created` is false for such a repeat.
 */
export async function insertMessageOnce(
  db: Db,
  event: NewEvent & { senderId: string; clientId: string },
): Promise<{ row: ConversationEventRow; created: boolean }> {
  const [row] = await db
    .insert(conversationEvents)
    .values(event)
    .onConflictDoNothing({ target: [conversationEvents.senderId, conversationEvents.clientId] })
    .returning();
  if (row) return { row, created: true };
  const first = await findEventByClientId(db, event.senderId, event.clientId);
  if (!first) throw new Error('message insert found neither a new nor an existing row');
  return { row: first, created: false };
}

/** What a student sent with this client id, if anything (in any conversation). */
export async function findEventByClientId(
  db: Db,
  senderId: string,
  clientId: string,
): Promise<ConversationEventRow | undefined> {
  const [row] = await db
    .select()
    .from(conversationEvents)
    .where(
      and(eq(conversationEvents.senderId, senderId), eq(conversationEvents.clientId, clientId)),
    );
  return row;
}

/** The same line in every conversation about a listing (its hold began or ended). */
export async function insertListingLine(
  db: Db,
  listingId: string,
  kind: ConversationEventKind,
  offerOf?: { conversationId: string; offerId: string },
): Promise<void> {
  await db.execute(sql`
    INSERT INTO conversation_events (conversation_id, kind, offer_id)
    SELECT id, ${kind}, CASE WHEN id = ${offerOf?.conversationId ?? null}::uuid
      THEN ${offerOf?.offerId ?? null}::uuid END
    FROM conversations WHERE listing_id = ${listingId}`);
}

/**
 * A system line in every conversation between the two students (one blocked or unblocked the
 * other): it reaches their open threads live (the events' NOTIFY), which then read the
 * conversation again and turn read-only or back.
 */
export async function insertLineBetween(
  db: Db,
  a: string,
  b: string,
  kind: 'blocked' | 'unblocked',
): Promise<void> {
  await db.execute(sql`
    INSERT INTO conversation_events (conversation_id, kind)
    SELECT id, ${kind} FROM conversations
    WHERE ${isPartySql('conversations', a)} AND ${isPartySql('conversations', b)}
      AND ${a}::uuid <> ${b}::uuid`);
}

type EventId = string | number;
const mailedColumn = (role: DealRole) => sql.raw(`${role}_mailed_id`);
const readColumn = (role: DealRole) => sql.raw(`${role}_read_id`);

/**
 * Claims the unread-message mail of one side: its mark moves from `mailedId` to the last event,
 * once (a conditional update, so two runs on any servers never both mail). The events it covers
 * (after `readId`, up to `lastEventId`), or null when another run claimed it first.
 */
export async function claimMessageMail(
  db: Db,
  conversationId: string,
  role: DealRole,
  mailedId: EventId,
): Promise<{ lastEventId: EventId; readId: EventId } | null> {
  const [claimed] = await rowsOf<{ lastEventId: EventId; readId: EventId }>(
    db,
    sql`UPDATE conversations SET ${mailedColumn(role)} = last_event_id
        WHERE id = ${conversationId} AND ${mailedColumn(role)} = ${mailedId}
        RETURNING last_event_id AS "lastEventId", ${readColumn(role)} AS "readId"`,
  );
  return claimed ?? null;
}

/** Gives a claim back (the mail failed), unless the mark moved on since. */
export async function releaseMessageMail(
  db: Db,
  conversationId: string,
  role: DealRole,
  mark: { claimed: EventId; before: EventId },
): Promise<void> {
  await db.execute(
    sql`UPDATE conversations SET ${mailedColumn(role)} = ${mark.before}
        WHERE id = ${conversationId} AND ${mailedColumn(role)} = ${mark.claimed}`,
  );
}

/**
 * A conversation's events after `afterId`, oldest first, at most `limit`. The messages of a
 * suspended student are left out for everyone but their author.
 */
export async function findEvents(
  db: Db,
  conversationId: string,
  viewerId: string,
  afterId = 0,
  limit = 500,
): Promise<ConversationEventRow[]> {
  return db
    .select()
    .from(conversationEvents)
    .where(
      and(
        eq(conversationEvents.conversationId, conversationId),
        gt(conversationEvents.id, afterId),
        sql`(${conversationEvents.senderId} IS NULL OR ${conversationEvents.senderId} = ${viewerId}
          OR NOT EXISTS (SELECT 1 FROM users u WHERE u.id = ${conversationEvents.senderId}
                         AND u.suspended_at IS NOT NULL))`,
      ),
    )
    .orderBy(asc(conversationEvents.id))
    .limit(limit);
}

/**
 * The channel a moved read mark is NOTIFYd on: `<conversation id> <recipient id> <mark> <time>`;
 * a campus of a many-campus installation's carries its schema (campusChannel, decision 024).
 */
export const SEEN_CHANNEL = 'conversation_seen';

/**
 * Moves the caller's read mark up to `upTo` (never past the last event, never back) and stamps its
 * time. When it moved and both students show read receipts, a NOTIFY at commit tells the other
 * side's live streams, on every app server.
 */
export async function markRead(
  db: Db,
  conversation: ConversationRow,
  userId: string,
  upTo: number,
  now: Date,
) {
  const role = participantRole(userId, conversation);
  const column = readColumn(role);
  const at = sql.raw(`${role}_read_at`);
  await db.execute(sql`
    WITH moved AS (
      UPDATE conversations c SET ${column} = LEAST(${upTo}::bigint, c.last_event_id),
        ${at} = ${now.toISOString()}::timestamptz
      WHERE c.id = ${conversation.id} AND ${column} < LEAST(${upTo}::bigint, c.last_event_id)
      RETURNING c.id, c.seller_id, c.buyer_id, c.${column} AS read_id)
    SELECT pg_notify(${campusChannel(SEEN_CHANNEL, currentCampusSchema())}, concat_ws(' ', m.id::text, ${otherPartySql('m', userId)}::text,
      m.read_id::text, ${now.toISOString()}::text))
    FROM moved m WHERE ${bothShowReceiptsSql('m')}`);
}

const PUBLIC_STATUSES = sql`(${sql.join(
  PUBLIC_LISTING_STATUSES.map((s) => sql`${s}`),
  sql`, `,
)})`;

/**
 * The conversation `c` holds an event after the caller's read mark that the caller may read: the
 * cheap comparison of marks first, then an event not hidden from them (`findEvents`' rule: a
 * suspended student's messages are left out for everyone but their author).
 */
function unreadBy(userId: string) {
  const readMark = ownColumnSql('c', userId, 'read_id');
  return sql`(c.last_event_id > ${readMark}
    AND EXISTS (SELECT 1 FROM conversation_events e
      LEFT JOIN users s ON s.id = e.sender_id
      WHERE e.conversation_id = c.id
        AND e.id > ${readMark}
        AND (e.sender_id IS NULL OR e.sender_id = ${userId} OR s.suspended_at IS NULL)))`;
}

/** Which side of the conversation `c` a student is (null: the system, or a deleted account). */
const sideOf = (student: SQL) => roleOfSql('c', student);

export interface InboxRow {
  id: string;
  role: DealRole;
  listing_id: string | null;
  listing_name: string;
  price: string | null;
  cover: string | null;
  status: string | null;
  held_until: Date | string | null;
  /** The visibility rule allows the caller to see the listing (its price, cover, state). */
  available: boolean;
  other_id: string | null;
  other_username: string | null;
  last_event_id: string | number;
  last_event_at: Date | string;
  unread: boolean;
  /** The other side's read mark and its time, only when both students show read receipts. */
  seen_up_to: string | number | null;
  seen_at: Date | string | null;
  /** The latest event the caller may read (`unreadBy`'s rule), its text cut to a preview. */
  last_kind: ConversationEventKind | null;
  last_author: DealRole | null;
  last_body: string | null;
  last_amount: string | number | null;
  /** The offer waiting for an answer, if any. */
  open_offer_amount: string | number | null;
  open_offer_from: DealRole | null;
}

/**
 * The caller's conversations, latest first, both sides (or one listing's, for its seller), with
 * what an inbox line shows. One statement: the two indexes by participant and date serve it. The
 * listing's price, cover and state follow the visibility rule (features/listings `isVisibleTo`, as
 * the caller is not a moderator here): a hidden, removed or seller-deleted listing shows only its
 * title to the buyer. `unread` counts only the events the caller may read (`VISIBLE_EVENT`).
 */
export async function findInbox(
  db: Db,
  userId: string,
  only: { listingId?: string; conversationId?: string } = {},
): Promise<InboxRow[]> {
  return rowsOf<InboxRow>(
    db,
    sql`SELECT c.id,
          ${roleOfSql('c', userId)} AS role,
          c.listing_id, coalesce(l.name, c.listing_name) AS listing_name,
          CASE WHEN v.ok THEN l.regular_price END AS price,
          CASE WHEN v.ok THEN l.image_urls[1] END AS cover,
          CASE WHEN v.ok THEN l.status END AS status,
          CASE WHEN v.ok THEN l.held_until END AS held_until,
          coalesce(v.ok, false) AS available,
          o.id AS other_id, o.username AS other_username,
          c.last_event_id, c.last_event_at,
          ${unreadBy(userId)} AS unread,
          CASE WHEN ${bothShowReceiptsSql('c')} THEN ${otherColumnSql('c', userId, 'read_id')} END
            AS seen_up_to,
          CASE WHEN ${bothShowReceiptsSql('c')} THEN ${otherColumnSql('c', userId, 'read_at')} END
            AS seen_at,
          le.kind AS last_kind, ${sideOf(sql`le.sender_id`)} AS last_author,
          CASE WHEN le.kind = 'message' AND le.body = '' AND cardinality(le.photo_ids) > 0
            THEN ${PHOTO_ONLY_PREVIEW}::text ELSE left(le.body, ${INBOX_PREVIEW_MAX_LENGTH}) END AS last_body,
          le.amount AS last_amount,
          oo.amount AS open_offer_amount, ${sideOf(sql`oo.from_id`)} AS open_offer_from
        FROM conversations c
        LEFT JOIN LATERAL (SELECT e.kind, e.sender_id, e.body, e.amount, e.photo_ids
          FROM conversation_events e
          LEFT JOIN users s ON s.id = e.sender_id
          WHERE e.conversation_id = c.id
            AND (e.sender_id IS NULL OR e.sender_id = ${userId} OR s.suspended_at IS NULL)
          ORDER BY e.id DESC LIMIT 1) le ON true
        LEFT JOIN LATERAL (SELECT f.amount, f.from_id FROM offers f
          WHERE f.conversation_id = c.id AND f.status = 'open'
          ORDER BY f.created_at DESC LIMIT 1) oo ON true
        LEFT JOIN listings l ON l.id = c.listing_id
        LEFT JOIN LATERAL (SELECT l.seller_deleted_at IS NULL
          AND (l.status IN ${PUBLIC_STATUSES} OR l.user_id = ${userId}) AS ok) v ON l.id IS NOT NULL
        LEFT JOIN users o ON o.id = ${otherPartySql('c', userId)}
        WHERE ${isPartySql('c', userId)}
          ${only.listingId ? sql`AND c.listing_id = ${only.listingId}` : sql``}
          ${only.conversationId ? sql`AND c.id = ${only.conversationId}` : sql``}
        ORDER BY c.last_event_at DESC, c.id
        LIMIT 500`,
  );
}

/**
 * How many of the caller's conversations hold something they have not read and may read (a
 * suspended student's messages are hidden from them, so they count for nothing).
 */
export async function countUnread(db: Db, userId: string): Promise<number> {
  const [row] = await rowsOf<{ count: string | number }>(
    db,
    sql`SELECT count(*) AS count FROM conversations c
        WHERE ${isPartySql('c', userId)} AND ${unreadBy(userId)}`,
  );
  return Number(row?.count ?? 0);
}

/** The students who wrote to the seller about a listing (the buyers of its conversations). */
export async function findBuyersOfListing(db: Db, listingId: string): Promise<string[]> {
  const rows = await db
    .select({ buyerId: conversations.buyerId })
    .from(conversations)
    .where(eq(conversations.listingId, listingId));
  return rows.flatMap((r) => (r.buyerId ? [r.buyerId] : []));
}
