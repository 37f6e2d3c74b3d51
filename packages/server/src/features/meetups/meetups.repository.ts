import { sql } from 'drizzle-orm';
import type { MeetupRow } from '../../db/ratings.schema';
import { rowsOf, type Executor } from '../../db/rows';
import { isPartySql } from '../../deal/deal.sql';

/** The one writer and reader of `meetups` (features/meetups). */

export interface MeetupDbRow {
  id: string;
  conversation_id: string;
  proposer_id: string | null;
  spot_id: string;
  starts_at: Date | string;
  status: MeetupRow['status'];
  created_at: Date | string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The conversation's open suggestion becomes this one: one open suggestion per conversation (the
 * partial unique key), so copies sent at once leave one.
 */
export async function upsertProposedMeetup(
  db: Executor,
  meetup: { conversationId: string; proposerId: string; spotId: string; startsAt: Date; now: Date },
): Promise<MeetupDbRow> {
  const [row] = await rowsOf<MeetupDbRow>(
    db,
    sql`INSERT INTO meetups (conversation_id, proposer_id, spot_id, starts_at, created_at)
        VALUES (${meetup.conversationId}, ${meetup.proposerId}, ${meetup.spotId},
                ${meetup.startsAt.toISOString()}, ${meetup.now.toISOString()})
        ON CONFLICT (conversation_id) WHERE status = 'proposed'
        DO UPDATE SET proposer_id = EXCLUDED.proposer_id, spot_id = EXCLUDED.spot_id,
                      starts_at = EXCLUDED.starts_at, created_at = EXCLUDED.created_at
        RETURNING id, conversation_id, proposer_id, spot_id, starts_at, status, created_at`,
  );
  return row!;
}

export function findMeetupsOfConversation(db: Executor, conversationId: string) {
  return rowsOf<MeetupDbRow>(
    db,
    sql`SELECT id, conversation_id, proposer_id, spot_id, starts_at, status, created_at FROM meetups
        WHERE conversation_id = ${conversationId} ORDER BY created_at DESC, id LIMIT 50`,
  );
}

/** The meetup with its conversation's two students (null: account deleted), when the user is one of them. */
export async function findMeetupOf(db: Executor, id: string, userId: string) {
  if (!UUID.test(id)) return undefined;
  const [row] = await rowsOf<
    MeetupDbRow & {
      listing_name: string;
      seller_id: string | null;
      buyer_id: string | null;
      seller_username: string | null;
      buyer_username: string | null;
    }
  >(
    db,
    sql`SELECT m.id, m.conversation_id, m.proposer_id, m.spot_id, m.starts_at, m.status, m.created_at,
               c.listing_name, c.seller_id, c.buyer_id,
               s.username AS seller_username, b.username AS buyer_username
        FROM meetups m JOIN conversations c ON c.id = m.conversation_id
        LEFT JOIN users s ON s.id = c.seller_id LEFT JOIN users b ON b.id = c.buyer_id
        WHERE m.id = ${id} AND ${isPartySql('c', userId)}`,
  );
  return row;
}

/** The answer to an open suggestion; undefined when it was answered or replaced meanwhile. */
export async function answerMeetupRow(
  db: Executor,
  id: string,
  status: 'accepted' | 'declined',
  now: Date,
): Promise<MeetupDbRow | undefined> {
  const [row] = await rowsOf<MeetupDbRow>(
    db,
    sql`UPDATE meetups SET status = ${status}, decided_at = ${now.toISOString()}
        WHERE id = ${id} AND status = 'proposed'
        RETURNING id, conversation_id, proposer_id, spot_id, starts_at, status, created_at`,
  );
  return row;
}

/** An accepted meetup with its two students' addresses, for its mails. */
export async function findMeetupForMail(db: Executor, id: string) {
  const [row] = await rowsOf<{
    id: string;
    conversation_id: string;
    spot_id: string;
    starts_at: Date | string;
    status: string;
    listing_name: string;
    seller_id: string | null;
    buyer_id: string | null;
    seller_email: string | null;
    buyer_email: string | null;
    seller_username: string | null;
    buyer_username: string | null;
  }>(
    db,
    sql`SELECT m.id, m.conversation_id, m.spot_id, m.starts_at, m.status, c.listing_name,
               s.id AS seller_id, b.id AS buyer_id, s.email AS seller_email, b.email AS buyer_email,
               s.username AS seller_username, b.username AS buyer_username
        FROM meetups m JOIN conversations c ON c.id = m.conversation_id
        LEFT JOIN users s ON s.id = c.seller_id LEFT JOIN users b ON b.id = c.buyer_id
        WHERE m.id = ${id}`,
  );
  return row;
}
