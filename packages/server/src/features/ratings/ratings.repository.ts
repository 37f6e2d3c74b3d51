import { sql } from 'drizzle-orm';
import type { RatingTag } from '@campus-books/common/rating.schemas';
import type { Db } from '../../db/database';
import { rowsOf, type Executor } from '../../db/rows';
import type { DealRole } from '../../deal/deal';
import { isPartySql, isRevealedSql } from '../../deal/deal.sql';

/** The one writer and reader of `exchanges`, `ratings` and `rating_reports` (features/ratings). */

export interface ExchangeDbRow {
  id: string;
  listing_id: string | null;
  listing_name: string;
  seller_id: string | null;
  buyer_id: string | null;
  sold_at: Date | string;
  seller_username: string | null;
  buyer_username: string | null;
}

export interface RatingDbRow {
  id: string;
  exchange_id: string;
  rater_id: string | null;
  ratee_id: string | null;
  rater_role: DealRole;
  positive: boolean;
  tags: RatingTag[] | string;
  comment: string | null;
  created_at: Date | string;
  removed_at: Date | string | null;
  rater_username: string | null;
}

const EXCHANGE_COLUMNS = sql`e.id, e.listing_id, e.listing_name, e.seller_id, e.buyer_id, e.sold_at,
  s.username AS seller_username, b.username AS buyer_username`;
const EXCHANGE_FROM = sql`exchanges e LEFT JOIN users s ON s.id = e.seller_id
  LEFT JOIN users b ON b.id = e.buyer_id`;

/** The user's exchanges, newest first. */
export function findExchangesOf(db: Executor, userId: string): Promise<ExchangeDbRow[]> {
  return rowsOf<ExchangeDbRow>(
    db,
    sql`SELECT ${EXCHANGE_COLUMNS} FROM ${EXCHANGE_FROM}
        WHERE ${isPartySql('e', userId)}
        ORDER BY e.sold_at DESC, e.id LIMIT 200`,
  );
}

/** The exchange when the user is one of its two students; undefined otherwise. */
export async function findExchangeOf(
  db: Executor,
  id: string,
  userId: string,
): Promise<ExchangeDbRow | undefined> {
  const [row] = await rowsOf<ExchangeDbRow>(
    db,
    sql`SELECT ${EXCHANGE_COLUMNS} FROM ${EXCHANGE_FROM}
        WHERE e.id = ${id} AND ${isPartySql('e', userId)}`,
  );
  return row;
}

const RATING_COLUMNS = sql`r.id, r.exchange_id, r.rater_id, r.ratee_id, r.rater_role, r.positive,
  r.tags, r.comment, r.created_at, r.removed_at, u.username AS rater_username`;

/** Every rating of these exchanges (removed ones too: they count as given, never shown). */
export function findRatingsOfExchanges(db: Executor, ids: string[]): Promise<RatingDbRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return rowsOf<RatingDbRow>(
    db,
    sql`SELECT ${RATING_COLUMNS} FROM ratings r LEFT JOIN users u ON u.id = r.rater_id
        WHERE r.exchange_id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
}

/** The rating, once per exchange and side: false when that side already rated (a copy won). */
export async function insertRating(
  db: Executor,
  rating: {
    exchangeId: string;
    raterId: string;
    rateeId: string;
    raterRole: DealRole;
    positive: boolean;
    tags: RatingTag[];
    comment: string | null;
    createdAt: Date;
  },
): Promise<boolean> {
  const tags = sql`ARRAY[${sql.join(
    rating.tags.map((t) => sql`${t}`),
    sql`, `,
  )}]::text[]`;
  const rows = await rowsOf(
    db,
    sql`INSERT INTO ratings (exchange_id, rater_id, ratee_id, rater_role, positive, tags, comment, created_at)
        VALUES (${rating.exchangeId}, ${rating.raterId}, ${rating.rateeId}, ${rating.raterRole},
                ${rating.positive}, ${rating.tags.length ? tags : sql`'{}'::text[]`}, ${rating.comment},
                ${rating.createdAt.toISOString()})
        ON CONFLICT (exchange_id, rater_role) DO NOTHING RETURNING id`,
  );
  return rows.length > 0;
}

/**
 * The revealed, not removed ratings a student received, newest first: revealed when both sides rated
 * or `revealBefore` is past the sale.
 */
export function findRevealedRatingsOf(
  db: Executor,
  userId: string,
  revealBefore: Date,
): Promise<RatingDbRow[]> {
  return rowsOf<RatingDbRow>(
    db,
    sql`SELECT ${RATING_COLUMNS} FROM ratings r
        JOIN exchanges e ON e.id = r.exchange_id
        LEFT JOIN users u ON u.id = r.rater_id
        WHERE r.ratee_id = ${userId} AND r.removed_at IS NULL
          AND ${isRevealedSql('e', revealBefore)}
        ORDER BY r.created_at DESC, r.id`,
  );
}

/** The ratings a student gave (removed ones too), for their data export. */
export function findRatingsGivenBy(db: Executor, userId: string): Promise<RatingDbRow[]> {
  return rowsOf<RatingDbRow>(
    db,
    sql`SELECT ${RATING_COLUMNS} FROM ratings r LEFT JOIN users u ON u.id = r.rater_id
        WHERE r.rater_id = ${userId} ORDER BY r.created_at, r.id`,
  );
}

/** How many exchanges a student took part in (as seller or buyer). */
export async function countExchangesOf(db: Executor, userId: string): Promise<number> {
  const [row] = await rowsOf<{ n: number | string }>(
    db,
    sql`SELECT count(*) AS n FROM exchanges WHERE ${isPartySql('exchanges', userId)}`,
  );
  return Number(row?.n ?? 0);
}

/** One rating with its exchange's students, for reports and moderation. */
export async function findRating(
  db: Executor,
  id: string,
): Promise<
  | (RatingDbRow & {
      sold_at: Date | string;
      listing_name: string;
      ratee_username: string | null;
      ratings_of_exchange: number | string;
    })
  | undefined
> {
  const [row] = await rowsOf<
    RatingDbRow & {
      sold_at: Date | string;
      listing_name: string;
      ratee_username: string | null;
      ratings_of_exchange: number | string;
    }
  >(
    db,
    sql`SELECT ${RATING_COLUMNS}, e.sold_at, e.listing_name, t.username AS ratee_username,
          (SELECT count(*) FROM ratings o WHERE o.exchange_id = e.id) AS ratings_of_exchange
        FROM ratings r JOIN exchanges e ON e.id = r.exchange_id
        LEFT JOIN users u ON u.id = r.rater_id LEFT JOIN users t ON t.id = r.ratee_id
        WHERE r.id = ${id}`,
  );
  return row;
}

/** A student's report of a rating (once per student: a second one changes nothing). */
export async function insertRatingReport(
  db: Executor,
  ratingId: string,
  reporterId: string,
  reason: string | null,
): Promise<void> {
  await db.execute(sql`INSERT INTO rating_reports (rating_id, reporter_id, reason)
    VALUES (${ratingId}, ${reporterId}, ${reason}) ON CONFLICT DO NOTHING`);
}

/** Reported ratings not yet removed, most reported first. */
export function findReportedRatings(db: Executor) {
  return rowsOf<
    RatingDbRow & {
      listing_name: string;
      ratee_id: string | null;
      ratee_username: string | null;
      reports: number | string;
      reasons: string[] | string | null;
      last_reported_at: Date | string;
    }
  >(
    db,
    sql`SELECT ${RATING_COLUMNS}, e.listing_name, t.username AS ratee_username,
          count(*) AS reports, array_remove(array_agg(rr.reason ORDER BY rr.created_at), NULL) AS reasons,
          max(rr.created_at) AS last_reported_at
        FROM rating_reports rr JOIN ratings r ON r.id = rr.rating_id
        JOIN exchanges e ON e.id = r.exchange_id
        LEFT JOIN users u ON u.id = r.rater_id LEFT JOIN users t ON t.id = r.ratee_id
        WHERE r.removed_at IS NULL
        GROUP BY r.id, u.username, e.listing_name, t.username
        ORDER BY count(*) DESC, max(rr.created_at) DESC LIMIT 100`,
  );
}

/** Removes a rating (moderators); false when it was already removed (a copy got there first). */
export async function removeRating(db: Executor, id: string, now: Date): Promise<boolean> {
  const rows = await rowsOf(
    db,
    sql`UPDATE ratings SET removed_at = ${now.toISOString()} WHERE id = ${id} AND removed_at IS NULL
        RETURNING id`,
  );
  return rows.length > 0;
}

/** Drops a rating's reports (a moderator found nothing wrong); false when there were none. */
export async function deleteRatingReports(db: Executor, id: string): Promise<boolean> {
  const rows = await rowsOf(
    db,
    sql`DELETE FROM rating_reports WHERE rating_id = ${id} RETURNING rating_id`,
  );
  return rows.length > 0;
}

/** Claims exchanges nobody was asked about yet (each once, across servers). */
export function claimUnpromptedExchanges(db: Db, now: Date) {
  return rowsOf<{
    id: string;
    listing_name: string;
    seller_id: string | null;
    buyer_id: string | null;
    seller_email: string | null;
    seller_username: string | null;
    buyer_email: string | null;
    buyer_username: string | null;
  }>(
    db,
    sql`WITH claimed AS (
          UPDATE exchanges SET prompted_at = ${now.toISOString()}
          WHERE id IN (SELECT id FROM exchanges WHERE prompted_at IS NULL
                       ORDER BY sold_at LIMIT 100 FOR UPDATE SKIP LOCKED)
          RETURNING id, listing_name, seller_id, buyer_id)
        SELECT c.id, c.listing_name, s.id AS seller_id, b.id AS buyer_id, s.email AS seller_email, s.username AS seller_username,
               b.email AS buyer_email, b.username AS buyer_username
        FROM claimed c LEFT JOIN users s ON s.id = c.seller_id LEFT JOIN users b ON b.id = c.buyer_id`,
  );
}
