import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { heldNotifications, notificationSettings } from '../../db/notifications.schema';
import { rowsOf } from '../../db/rows';
import type { NotificationChannel } from '@campus-books/common/notification.schemas';

/** The one writer of `notification_settings` and `held_notifications`. */

export interface StoredChoices {
  choices: Record<string, { mail?: boolean; push?: boolean }>;
  quietStart: string | null;
  quietEnd: string | null;
}

export async function findStoredChoices(db: Db, userId: string): Promise<StoredChoices | null> {
  const [row] = await db
    .select({
      choices: notificationSettings.choices,
      quietStart: notificationSettings.quietStart,
      quietEnd: notificationSettings.quietEnd,
    })
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, userId));
  return row ?? null;
}

/** Writes the whole of a student's choices (the state asked for, however often). */
export async function saveStoredChoices(
  db: Db,
  userId: string,
  stored: StoredChoices,
): Promise<void> {
  const values = { ...stored, updatedAt: new Date() };
  await db
    .insert(notificationSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: values });
}

/** Sets one kind's one channel, leaving every other choice as it is (an unsubscribe link). */
export async function setStoredChoice(
  db: Db,
  userId: string,
  kind: string,
  channel: NotificationChannel,
  on: boolean,
): Promise<void> {
  const one = sql`jsonb_build_object(${kind}::text, jsonb_build_object(${channel}::text, ${on}::boolean))`;
  await db.execute(sql`
    INSERT INTO notification_settings (user_id, choices) VALUES (${userId}, ${one})
    ON CONFLICT (user_id) DO UPDATE SET
      choices = notification_settings.choices || jsonb_build_object(${kind}::text,
        coalesce(notification_settings.choices -> ${kind}::text, '{}'::jsonb)
          || jsonb_build_object(${channel}::text, ${on}::boolean)),
      updated_at = now()`);
}

export interface HeldItem {
  kind: string;
  title: string;
  body: string;
  createdAt: Date;
}

export async function holdNotification(
  db: Db,
  item: { userId: string; kind: string; channel: NotificationChannel; title: string; body: string },
  now: Date,
): Promise<void> {
  await db.insert(heldNotifications).values({ ...item, createdAt: now });
}

/** The students with something held on a channel. */
export async function findHeldRecipients(db: Db, channel: NotificationChannel) {
  return rowsOf<{ user_id: string; email: string }>(
    db,
    sql`SELECT DISTINCT h.user_id, u.email FROM held_notifications h JOIN users u ON u.id = h.user_id
        WHERE h.channel = ${channel} AND u.suspended_at IS NULL ORDER BY h.user_id LIMIT 500`,
  );
}

/**
 * Drops what is held on a channel for suspended students: never sent to them (a suspension stops
 * their mails and pushes), so never kept. A deleted account's items go with it (ON DELETE CASCADE).
 */
export async function dropHeldOfSuspended(db: Db, channel: NotificationChannel): Promise<number> {
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`DELETE FROM held_notifications h USING users u
        WHERE u.id = h.user_id AND u.suspended_at IS NOT NULL AND h.channel = ${channel}
        RETURNING h.id`,
  );
  return rows.length;
}

/** Takes (deletes and answers, oldest first) what is held for a student on a channel. */
export async function takeHeld(
  db: Db,
  userId: string,
  channel: NotificationChannel,
): Promise<HeldItem[]> {
  const rows = await db
    .delete(heldNotifications)
    .where(and(eq(heldNotifications.userId, userId), eq(heldNotifications.channel, channel)))
    .returning({
      kind: heldNotifications.kind,
      title: heldNotifications.title,
      body: heldNotifications.body,
      createdAt: heldNotifications.createdAt,
    });
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** Puts back what a failed digest took, to be sent by the next run. */
export async function restoreHeld(
  db: Db,
  userId: string,
  channel: NotificationChannel,
  items: HeldItem[],
): Promise<void> {
  if (items.length === 0) return;
  await db.insert(heldNotifications).values(items.map((item) => ({ ...item, userId, channel })));
}
