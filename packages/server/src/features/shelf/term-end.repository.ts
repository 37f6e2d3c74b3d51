import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { termEndMailSubscribers, termEndMailsSent } from '../../db/shelf.schema';

/** The one writer of `term_end_mail_subscribers` and `term_end_mails_sent`. */

/** Whether the student asked for the end-of-term mail. */
export async function isTermEndSubscriber(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: termEndMailSubscribers.userId })
    .from(termEndMailSubscribers)
    .where(eq(termEndMailSubscribers.userId, userId));
  return rows.length > 0;
}

/** Turns the end-of-term mail on or off: the state asked for, however often (or in parallel). */
export async function setTermEndSubscription(db: Db, userId: string, on: boolean): Promise<void> {
  if (on) {
    await db.insert(termEndMailSubscribers).values({ userId }).onConflictDoNothing();
  } else {
    await db.delete(termEndMailSubscribers).where(eq(termEndMailSubscribers.userId, userId));
  }
}

/**
 * The subscribed students due the mail of `termEnd` (a date, `YYYY-MM-DD`): verified, not suspended,
 * not yet mailed for it, and with listings or a book bought since the term began.
 */
export async function findTermEndRecipients(db: Db, termEnd: string, termStart: Date) {
  return rowsOf<{ id: string; email: string }>(
    db,
    sql`
    SELECT u.id, u.email FROM term_end_mail_subscribers s JOIN users u ON u.id = s.user_id
    WHERE u.email_verified_at IS NOT NULL AND u.suspended_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM term_end_mails_sent m WHERE m.user_id = u.id AND m.term_end = ${termEnd}::date)
      AND (EXISTS (SELECT 1 FROM listings l WHERE l.user_id = u.id)
        OR EXISTS (SELECT 1 FROM listings l WHERE l.sold_to = u.id AND l.sold_at >= ${termStart.toISOString()}::timestamptz))
    ORDER BY u.id`,
  );
}

/** Claims the student's mail of `termEnd`; false when another run has it (the insert decides). */
export async function claimTermEndMail(db: Db, userId: string, termEnd: string): Promise<boolean> {
  const claimed = await db
    .insert(termEndMailsSent)
    .values({ userId, termEnd })
    .onConflictDoNothing()
    .returning({ userId: termEndMailsSent.userId });
  return claimed.length > 0;
}

const sentRow = (userId: string, termEnd: string) =>
  and(eq(termEndMailsSent.userId, userId), eq(termEndMailsSent.termEnd, termEnd));

/** The claimed mail was handed to the mailer. */
export async function markTermEndMailDelivered(db: Db, userId: string, termEnd: string) {
  await db.update(termEndMailsSent).set({ delivered: true }).where(sentRow(userId, termEnd));
}

/** Gives a claim back (the mail failed): the next run tries again. */
export async function releaseTermEndMail(db: Db, userId: string, termEnd: string) {
  await db.delete(termEndMailsSent).where(sentRow(userId, termEnd));
}
