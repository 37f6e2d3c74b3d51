import { sql } from 'drizzle-orm';
import type { ListingStatus } from '@campus-books/common/constants';
import type { Db } from '../../db/database';
import { rowsOf } from '../../db/rows';

/**
 * The one writer of `alert_deliveries`, the alerts' outbox: one row per student, listing and
 * event (a unique index, so queueing twice adds nothing), claimed by a sender under a lease.
 */

const ts = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * Queues the listing for the owner of every live alert it matches (one row per student, the
 * seller never); the rows made, each saying whether it waits for the daily digest.
 */
export function queueAlertMatches(db: Db, listingId: string): Promise<{ digest: boolean }[]> {
  return rowsOf<{ digest: boolean }>(
    db,
    sql`
    INSERT INTO alert_deliveries (user_id, listing_id, alert_id, event, digest)
    SELECT DISTINCT ON (a.user_id) a.user_id, l.id, a.id, 'alert', a.digest
    FROM listings l
    JOIN alerts a ON NOT a.paused AND a.user_id <> l.user_id
      AND (a.isbn IS NULL OR a.isbn = l.isbn)
      AND (a.subject IS NULL OR a.subject = l.subject)
      AND (a.course_number IS NULL OR a.course_number = l.course_number)
      AND (a.major IS NULL OR a.major = l.major)
      AND (a.condition IS NULL OR a.condition = l.condition)
      AND (a.school IS NULL OR a.school = ANY (l.schools))
      AND (a.max_price IS NULL OR l.regular_price <= a.max_price)
      AND (a.term_words IS NULL OR NOT EXISTS (
        SELECT 1 FROM unnest(a.term_words) AS w(word) WHERE strpos(lower(l.name), w.word) = 0))
    WHERE l.id = ${listingId} AND l.status = 'active'
    ORDER BY a.user_id, a.digest, a.created_at
    ON CONFLICT (user_id, listing_id, event) DO NOTHING
    RETURNING digest`,
  );
}

/** Queues news of a saved listing (`sold`, `price:<amount>`) for its savers who want it; how many. */
export async function queueSavedListingNews(
  db: Db,
  listingId: string,
  event: string,
): Promise<number> {
  const rows = await rowsOf(
    db,
    sql`
    INSERT INTO alert_deliveries (user_id, listing_id, event)
    SELECT s.user_id, l.id, ${event}
    FROM saved_listings s JOIN listings l ON l.id = s.listing_id
    JOIN users u ON u.id = s.user_id AND u.saved_listing_mails
    WHERE s.listing_id = ${listingId} AND s.user_id <> l.user_id
    ON CONFLICT (user_id, listing_id, event) DO NOTHING
    RETURNING id`,
  );
  return rows.length;
}

/**
 * Claims, under `token` until `until`, every unsent row of one student whose rows no other sender
 * holds (`FOR UPDATE SKIP LOCKED`, then the lease); `digest` takes the digest's rows too. The
 * number of rows claimed (0: nothing left).
 */
export async function claimNextStudentDeliveries(
  db: Db,
  token: string,
  { now, until, digest }: { now: Date; until: Date; digest: boolean },
): Promise<number> {
  const kinds = digest ? sql`TRUE` : sql`NOT digest`;
  const claimed = await rowsOf<{ user_id: string }>(
    db,
    sql`
    UPDATE alert_deliveries SET claimed_by = ${token}, claimed_until = ${ts(until)}
    WHERE id IN (
      SELECT id FROM alert_deliveries
      WHERE sent_at IS NULL AND ${kinds}
        AND (claimed_until IS NULL OR claimed_until < ${ts(now)})
        AND user_id = (
          SELECT user_id FROM alert_deliveries
          WHERE sent_at IS NULL AND ${kinds}
            AND (claimed_until IS NULL OR claimed_until < ${ts(now)})
          LIMIT 1 FOR UPDATE SKIP LOCKED)
      FOR UPDATE SKIP LOCKED)
    RETURNING user_id`,
  );
  return claimed.length;
}

export interface PendingRow {
  id: string;
  user_id: string;
  alert_id: string | null;
  event: string;
  email: string;
  listing_id: string;
  name: string;
  regular_price: string;
  condition: string;
  subject: string | null;
  course_number: string;
  image_urls: string[];
  status: ListingStatus;
  saved_listing_mails: boolean;
}

/** The rows claimed under `token`, with their student and listing, oldest first. */
export function findClaimedDeliveries(db: Db, token: string): Promise<PendingRow[]> {
  return rowsOf<PendingRow>(
    db,
    sql`
    SELECT d.id, d.user_id, d.alert_id, d.event, u.email, l.id AS listing_id, l.name,
      l.regular_price, l.condition, l.subject, l.course_number, l.image_urls, l.status,
      u.saved_listing_mails
    FROM alert_deliveries d
    JOIN users u ON u.id = d.user_id
    JOIN listings l ON l.id = d.listing_id
    WHERE d.claimed_by = ${token}
    ORDER BY d.created_at, d.id`,
  );
}

/** The rows claimed under `token` were mailed (or not worth a mail) at `now`. */
export async function markDeliveriesSent(db: Db, token: string, now: Date): Promise<void> {
  await db.execute(sql`
    UPDATE alert_deliveries SET sent_at = ${ts(now)}, claimed_until = NULL
    WHERE claimed_by = ${token}`);
}

/** Gives the unsent rows claimed under `token` back at once (the mail failed). */
export async function releaseDeliveries(db: Db, token: string): Promise<void> {
  await db.execute(sql`
    UPDATE alert_deliveries SET claimed_until = NULL, claimed_by = NULL
    WHERE claimed_by = ${token} AND sent_at IS NULL`);
}
