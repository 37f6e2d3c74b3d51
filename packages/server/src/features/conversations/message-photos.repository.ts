import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { rowsOf } from '../../db/rows';

/**
 * The message of a conversation that carries the photo, with whether its sender is suspended; none
 * when no message of this conversation carries it or its sender's account is deleted (whose photos
 * are deleted with it). Reads only: the events are written by conversations.repository.ts.
 */
export async function findPhotoMessage(
  db: Db,
  conversationId: string,
  imageId: string,
): Promise<{ senderId: string; senderSuspended: boolean } | undefined> {
  const [row] = await rowsOf<{ sender_id: string; sender_suspended: boolean }>(
    db,
    sql`SELECT e.sender_id, u.suspended_at IS NOT NULL AS sender_suspended
      FROM conversation_events e JOIN users u ON u.id = e.sender_id
      WHERE e.conversation_id = ${conversationId} AND ${imageId}::uuid = ANY(e.photo_ids)
      LIMIT 1`,
  );
  return row ? { senderId: row.sender_id, senderSuspended: row.sender_suspended } : undefined;
}
