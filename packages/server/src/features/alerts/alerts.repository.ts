import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { alerts, type AlertRow } from '../../db/alerts.schema';

/** The one writer of `alerts` (the rules: alerts.service.ts). */

/** The columns an alert's filters and settings set. */
export type AlertColumns = Omit<
  typeof alerts.$inferInsert,
  'id' | 'userId' | 'createdAt' | 'updatedAt'
>;

/** The student's alerts, newest first. */
export function findAlertsOf(db: Db, userId: string): Promise<AlertRow[]> {
  return db
    .select()
    .from(alerts)
    .where(eq(alerts.userId, userId))
    .orderBy(desc(alerts.createdAt), desc(alerts.id));
}

/**
 * Inserts the alert, or nothing when one with the same filters exists (the unique index
 * `alerts_same_filters`, `ON CONFLICT DO NOTHING`); the row made, or undefined.
 */
export async function insertAlertUnlessSame(
  db: Db,
  userId: string,
  columns: AlertColumns,
): Promise<AlertRow | undefined> {
  const [row] = await db
    .insert(alerts)
    .values({ ...columns, userId })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** Sets the student's alert's filters and settings; the row, or undefined when not theirs. */
export async function updateAlertOf(
  db: Db,
  userId: string,
  id: string,
  columns: AlertColumns,
): Promise<AlertRow | undefined> {
  const [row] = await db
    .update(alerts)
    .set({ ...columns, updatedAt: new Date() })
    .where(and(eq(alerts.id, id), eq(alerts.userId, userId)))
    .returning();
  return row;
}

/** Deletes those of `ids` that are the student's alerts; how many. */
export async function deleteAlertsOf(db: Db, userId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const deleted = await db
    .delete(alerts)
    .where(and(eq(alerts.userId, userId), inArray(alerts.id, ids)))
    .returning({ id: alerts.id });
  return deleted.length;
}
