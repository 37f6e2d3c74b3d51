import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import {
  MISSED_SEARCH_MIN_COUNT,
  MISSED_SEARCH_TOP,
  type OperatorStatistics,
} from '@campus-books/common/statistics.schemas';
import { rowsOf } from '../../db/rows';

const DAY_MS = 24 * 60 * 60_000;
const WEEK_MS = 7 * DAY_MS;

/** The Monday 00:00 UTC of the week `now` is in. */
export function weekStart(now: Date): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS);
}

interface WeekRow {
  week: string;
  created: number;
  sold: number;
  expired: number;
  sellers: number;
  buyers: number;
  alerts: number;
  notifications: number;
  misses: number;
  messages: number;
}

/**
 * The operator statistics of the last `weeks` weeks (UTC weeks from Monday, the current one last):
 * counts and distinct-student counts per week, and the top terms searched without a result. One
 * statement of grouped counts over the period, joined to the weeks; no row names a student.
 */
export async function operatorStatistics(
  { db, now }: { db: Db; now: () => Date },
  weeks: number,
): Promise<OperatorStatistics> {
  const first = new Date(weekStart(now()).getTime() - (weeks - 1) * WEEK_MS);
  const end = new Date(first.getTime() + weeks * WEEK_MS);
  const from = sql`${first.toISOString()}::timestamptz`;
  const to = sql`${end.toISOString()}::timestamptz`;
  const inPeriod = (column: string) =>
    sql`${sql.raw(column)} >= ${from} AND ${sql.raw(column)} < ${to}`;
  const week = (column: string) => sql`date_trunc('week', ${sql.raw(column)} AT TIME ZONE 'UTC')`;
  const counted = (column: string, table: string, where = sql`TRUE`) =>
    sql`SELECT ${week(column)} AS week, count(*)::int AS n FROM ${sql.raw(table)}
      WHERE ${inPeriod(column)} AND ${where} GROUP BY 1`;

  const rows = await rowsOf<WeekRow>(
    db,
    sql`
    WITH weeks AS (
      SELECT generate_series(${from} AT TIME ZONE 'UTC', ${to} AT TIME ZONE 'UTC' - interval '1 day',
        interval '7 days') AS week
    ),
    created AS (${counted('created_at', 'listings')}),
    sold AS (${counted('sold_at', 'listings')}),
    expired AS (${counted('expires_at', 'listings', sql`status = 'expired'`)}),
    sellers AS (
      SELECT week, count(DISTINCT user_id)::int AS n FROM (
        SELECT ${week('created_at')} AS week, user_id FROM listings WHERE ${inPeriod('created_at')}
        UNION ALL
        SELECT ${week('confirmed_at')}, user_id FROM listings WHERE ${inPeriod('confirmed_at')}
      ) active GROUP BY week
    ),
    buyers AS (
      SELECT week, count(DISTINCT user_id)::int AS n FROM (
        SELECT ${week('created_at')} AS week, user_id FROM saved_listings
          WHERE ${inPeriod('created_at')}
        UNION ALL
        SELECT ${week('created_at')}, user_id FROM alerts WHERE ${inPeriod('created_at')}
      ) active GROUP BY week
    ),
    alerts_created AS (${counted('created_at', 'alerts')}),
    notifications AS (${counted('sent_at', 'alert_deliveries')}),
    messages AS (${counted('created_at', 'conversation_events', sql`kind = 'message'`)}),
    misses AS (
      SELECT date_trunc('week', day::timestamp) AS week, sum(count)::int AS n FROM search_misses
      WHERE day >= (${from} AT TIME ZONE 'UTC')::date AND day < (${to} AT TIME ZONE 'UTC')::date
      GROUP BY 1
    )
    SELECT to_char(weeks.week, 'YYYY-MM-DD') AS week,
      coalesce(created.n, 0) AS created, coalesce(sold.n, 0) AS sold,
      coalesce(expired.n, 0) AS expired, coalesce(sellers.n, 0) AS sellers,
      coalesce(buyers.n, 0) AS buyers, coalesce(alerts_created.n, 0) AS alerts,
      coalesce(notifications.n, 0) AS notifications, coalesce(misses.n, 0) AS misses,
      coalesce(messages.n, 0) AS messages
    FROM weeks
      LEFT JOIN created USING (week) LEFT JOIN sold USING (week) LEFT JOIN expired USING (week)
      LEFT JOIN sellers USING (week) LEFT JOIN buyers USING (week)
      LEFT JOIN alerts_created USING (week) LEFT JOIN notifications USING (week)
      LEFT JOIN misses USING (week) LEFT JOIN messages USING (week)
    ORDER BY weeks.week`,
  );

  const missed = await rowsOf<{ term: string; count: number }>(
    db,
    sql`
    SELECT term, sum(count)::int AS count FROM search_misses
    WHERE day >= (${from} AT TIME ZONE 'UTC')::date AND day < (${to} AT TIME ZONE 'UTC')::date
    GROUP BY term HAVING sum(count) >= ${MISSED_SEARCH_MIN_COUNT}
    ORDER BY count DESC, term LIMIT ${MISSED_SEARCH_TOP}`,
  );

  return {
    weeks: rows.map((r) => ({
      weekStart: r.week,
      listingsCreated: r.created,
      listingsSold: r.sold,
      listingsExpired: r.expired,
      activeSellers: r.sellers,
      activeBuyers: r.buyers,
      alertsCreated: r.alerts,
      alertNotificationsSent: r.notifications,
      searchesWithoutResults: r.misses,
      messages: r.messages,
    })),
    topMissedSearches: missed,
  };
}
