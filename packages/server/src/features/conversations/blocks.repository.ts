import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { userBlocks } from '../../db/conversations.schema';
import { rowsOf } from '../../db/rows';
import { insertLineBetween } from './conversations.repository';

/** The one writer of `user_blocks`. */

/** Whether either student blocked the other. */
export async function isBlockedBetween(db: Db, a: string, b: string): Promise<boolean> {
  const rows = await db
    .select({ blockerId: userBlocks.blockerId })
    .from(userBlocks)
    .where(
      or(
        and(eq(userBlocks.blockerId, a), eq(userBlocks.blockedId, b)),
        and(eq(userBlocks.blockerId, b), eq(userBlocks.blockedId, a)),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Whether the account exists (a block names a student, never a made-up id). */
export async function userExists(db: Db, userId: string): Promise<boolean> {
  const rows = await rowsOf(db, sql`SELECT 1 FROM users WHERE id = ${userId}`);
  return rows.length > 0;
}

/**
 * Blocks `blockedId` (once, however often it is asked); from the user's row, so a deleted one is
 * skipped. Only the request that made the block writes the "blocked" lines.
 */
export async function insertBlock(db: Db, blockerId: string, blockedId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const made = await rowsOf(
      tx,
      sql`INSERT INTO user_blocks (blocker_id, blocked_id)
        SELECT ${blockerId}, id FROM users WHERE id = ${blockedId}
        ON CONFLICT DO NOTHING RETURNING blocker_id`,
    );
    if (made.length > 0) await insertLineBetween(tx, blockerId, blockedId, 'blocked');
  });
}

/** Lifts the block; the conversations open again (a line says so) unless the other blocked too. */
export async function deleteBlock(db: Db, blockerId: string, blockedId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const lifted = await tx
      .delete(userBlocks)
      .where(and(eq(userBlocks.blockerId, blockerId), eq(userBlocks.blockedId, blockedId)))
      .returning({ blockerId: userBlocks.blockerId });
    if (lifted.length > 0 && !(await isBlockedBetween(tx, blockerId, blockedId))) {
      await insertLineBetween(tx, blockerId, blockedId, 'unblocked');
    }
  });
}

/** The students the user blocked, with their usernames, latest first. */
export async function findBlocked(db: Db, blockerId: string) {
  return rowsOf<{ id: string; username: string; created_at: Date | string }>(
    db,
    sql`SELECT u.id, u.username, b.created_at FROM user_blocks b JOIN users u ON u.id = b.blocked_id
        WHERE b.blocker_id = ${blockerId} ORDER BY b.created_at DESC, u.id`,
  );
}
