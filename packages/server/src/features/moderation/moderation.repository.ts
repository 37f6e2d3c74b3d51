import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database';
import type { ListingStatus } from '@campus-books/common/constants';
import { users } from '../../db/schema';
import type { ModerationLogEntry } from '@campus-books/common/moderation.schemas';
import { listingReports, moderationLog } from '../../db/moderation.schema';

// A moderator's reads of accounts (a suspension is written by users.repository), reports and the audit log.

export async function userExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id));
  return row !== undefined;
}

export async function findUserEmail(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, id));
  return row?.email;
}

/** What the audit log says when a seller deletes a listing the moderators still have to look at. */
export const SELLER_DELETE_REASONS = {
  hidden: 'Deleted by the seller while reported (hidden)',
  removed: 'Deleted by the seller after its removal',
  reported: 'Deleted by the seller while reported',
} as const;

/** The audit line of a seller's delete kept for the moderators: the seller is the one who acted. */
export async function logSellerDelete(
  db: Db,
  seller: { id: string; email: string },
  listingId: string,
  was: ListingStatus,
): Promise<void> {
  await db.insert(moderationLog).values({
    moderatorId: null,
    moderatorEmail: seller.email,
    action: 'seller-delete',
    listingId,
    userId: seller.id,
    reason:
      was === 'hidden'
        ? SELLER_DELETE_REASONS.hidden
        : was === 'removed'
          ? SELLER_DELETE_REASONS.removed
          : SELLER_DELETE_REASONS.reported,
  });
}

/** A moderator's action in the append-only audit log (moderation and ratings' moderators). */
export async function logModeratorAction(
  db: Db,
  moderator: { id: string; email: string },
  action: ModerationLogEntry['action'],
  target: {
    listingId?: string | null;
    ratingId?: string | null;
    conversationId?: string | null;
    userId?: string | null;
    reason?: string | null;
  },
): Promise<void> {
  await db.insert(moderationLog).values({
    moderatorId: moderator.id,
    moderatorEmail: moderator.email,
    action,
    listingId: target.listingId ?? null,
    ratingId: target.ratingId ?? null,
    conversationId: target.conversationId ?? null,
    userId: target.userId ?? null,
    reason: target.reason ?? null,
  });
}

/** Closes a listing's open reports (out of the queue and of the hide's count); the ids closed. */
export async function closeOpenReports(db: Db, listingId: string, now: Date): Promise<string[]> {
  const closed = await db
    .update(listingReports)
    .set({ resolvedAt: now })
    .where(and(eq(listingReports.listingId, listingId), isNull(listingReports.resolvedAt)))
    .returning({ id: listingReports.id });
  return closed.map((row) => row.id);
}

/** Records a student's report of a listing; false when they reported it already (one each). */
export async function insertReport(
  db: Db,
  report: typeof listingReports.$inferInsert,
): Promise<boolean> {
  const [row] = await db
    .insert(listingReports)
    .values(report)
    .onConflictDoNothing({ target: [listingReports.listingId, listingReports.reporterId] })
    .returning({ id: listingReports.id });
  return row !== undefined;
}
