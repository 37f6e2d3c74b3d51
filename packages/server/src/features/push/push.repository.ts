import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { pushSubscriptions, type PushSubscriptionRow } from '../../db/push.schema';
import { rowsOf } from '../../db/rows';
import { otherColumnSql, otherPartySql } from '../../deal/deal.sql';

/** Devices one student keeps subscribed at most: a new one past this drops the longest unused. */
export const MAX_DEVICES_PER_STUDENT = 10;

export interface NewSubscription {
  userId: string;
  sessionId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** Undefined: keep the device's choice (a new device: off). */
  alerts: boolean | undefined;
}

/**
 * Saves a device's subscription. The endpoint names the device: subscribing it again updates its
 * keys and session; a device now signed in as another student becomes theirs, with alerts off
 * unless they choose. One statement, so parallel copies of the request leave one row.
 */
export async function saveSubscription(
  db: Db,
  input: NewSubscription,
): Promise<{ endpoint: string; alerts: boolean }> {
  const alerts = input.alerts ?? null;
  const [row] = await rowsOf<{ endpoint: string; alerts: boolean }>(
    db,
    sql`
    INSERT INTO push_subscriptions (user_id, session_id, endpoint, p256dh, auth, alerts)
    VALUES (${input.userId}, ${input.sessionId}, ${input.endpoint}, ${input.p256dh}, ${input.auth},
      coalesce(${alerts}::boolean, false))
    ON CONFLICT (endpoint) DO UPDATE SET
      user_id = EXCLUDED.user_id, session_id = EXCLUDED.session_id,
      p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
      alerts = coalesce(${alerts}::boolean,
        CASE WHEN push_subscriptions.user_id = EXCLUDED.user_id THEN push_subscriptions.alerts
          ELSE false END),
      updated_at = now()
    RETURNING endpoint, alerts`,
  );
  await db.execute(sql`
    DELETE FROM push_subscriptions WHERE id IN (
      SELECT id FROM push_subscriptions WHERE user_id = ${input.userId}
      ORDER BY updated_at DESC, id OFFSET ${MAX_DEVICES_PER_STUDENT})`);
  return row!;
}

/** Forgets the student's subscription of this endpoint; false when they had none. */
export async function deleteSubscription(
  db: Db,
  userId: string,
  endpoint: string,
): Promise<boolean> {
  const deleted = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return deleted.length > 0;
}

/** The student's subscribed devices, the latest renewed first. */
export async function findSubscriptionsOf(
  db: Db,
  userId: string,
): Promise<{ endpoint: string; alerts: boolean }[]> {
  return db
    .select({ endpoint: pushSubscriptions.endpoint, alerts: pushSubscriptions.alerts })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(desc(pushSubscriptions.updatedAt), pushSubscriptions.id);
}

export async function findSubscription(
  db: Db,
  id: string,
): Promise<PushSubscriptionRow | undefined> {
  const [row] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id));
  return row;
}

/** The push service said the subscription is gone: removed, unless it was renewed meanwhile. */
export async function deleteGoneSubscription(db: Db, row: PushSubscriptionRow): Promise<void> {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, row.id), eq(pushSubscriptions.p256dh, row.p256dh)));
}

/** What a notification of a conversation event says, read when it is sent. */
export interface EventNotice {
  conversation_id: string;
  kind: string;
  listing_name: string;
  /** The participant the notice is for: the one who did not write it. */
  recipient_id: string | null;
  /** Whether the recipient has already read it (in the app, on another device). */
  read: boolean;
  /** A suspended student's messages are hidden from others: never notified. */
  sender_suspended: boolean;
  /** A message of photos and no text: its notice says a photo came. */
  photo_only: boolean;
}

export async function findEventNotice(db: Db, eventId: number): Promise<EventNotice | undefined> {
  const [row] = await rowsOf<EventNotice>(
    db,
    sql`
    SELECT c.id AS conversation_id, e.kind, c.listing_name,
      ${otherPartySql('c', sql`e.sender_id`)} AS recipient_id,
      ${otherColumnSql('c', sql`e.sender_id`, 'read_id')} >= e.id AS read,
      coalesce(s.suspended_at IS NOT NULL, true) AS sender_suspended,
      (e.kind = 'message' AND e.body = '' AND cardinality(e.photo_ids) > 0) AS photo_only
    FROM conversation_events e
    JOIN conversations c ON c.id = e.conversation_id
    LEFT JOIN users s ON s.id = e.sender_id
    WHERE e.id = ${eventId}`,
  );
  return row;
}

/** What a notification of an alert match says: the listing, while it is still for sale. */
export async function findActiveListingName(
  db: Db,
  listingId: string,
): Promise<string | undefined> {
  const [row] = await rowsOf<{ name: string }>(
    db,
    sql`SELECT name FROM listings WHERE id = ${listingId} AND status = 'active'`,
  );
  return row?.name;
}

/** The ids of the student's devices (a push digest goes to each). */
export async function findSubscriptionIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  return rows.map((row) => row.id);
}
