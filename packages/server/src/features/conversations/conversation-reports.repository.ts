import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { ConversationReportReason } from '@campus-books/common/moderation.schemas';
import type { Db } from '../../db/database';
import {
  conversationEvents,
  conversationReports,
  conversations,
  type ConversationEventRow,
  type ConversationRow,
} from '../../db/conversations.schema';
import { logModeratorAction } from '../moderation/moderation.repository';
import { users } from '../../db/schema';

/** The one writer of `conversation_reports`. */

/** Records the report; false when this student already reported this conversation (acts once). */
export async function insertConversationReport(
  db: Db,
  values: {
    conversationId: string;
    reporterId: string;
    reason: ConversationReportReason;
    note: string | null;
  },
): Promise<boolean> {
  const [row] = await db
    .insert(conversationReports)
    .values(values)
    .onConflictDoNothing({
      target: [conversationReports.conversationId, conversationReports.reporterId],
    })
    .returning({ id: conversationReports.id });
  return row !== undefined;
}

/** Open reports, oldest first (at most 1,000: the moderators' queue). */
export function findOpenConversationReports(db: Db, conversationId?: string) {
  return db
    .select()
    .from(conversationReports)
    .where(
      and(
        isNull(conversationReports.resolvedAt),
        conversationId ? eq(conversationReports.conversationId, conversationId) : undefined,
      ),
    )
    .orderBy(asc(conversationReports.createdAt), asc(conversationReports.id))
    .limit(1000);
}

/** The conversations and their two participants' names and suspensions. */
export async function findConversationsWithParticipants(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db.select().from(conversations).where(inArray(conversations.id, ids));
  const people = rows.flatMap((r) => [r.sellerId, r.buyerId]).filter((id) => id !== null);
  const accounts =
    people.length === 0
      ? []
      : await db
          .select({ id: users.id, username: users.username, suspendedAt: users.suspendedAt })
          .from(users)
          .where(inArray(users.id, people));
  const byId = new Map(accounts.map((a) => [a.id, a]));
  return rows.map((conversation: ConversationRow) => ({
    conversation,
    seller: conversation.sellerId ? byId.get(conversation.sellerId) : undefined,
    buyer: conversation.buyerId ? byId.get(conversation.buyerId) : undefined,
  }));
}

/** Every event of a conversation, oldest first, with whether its author is suspended now. */
export async function findAllEvents(
  db: Db,
  conversationId: string,
): Promise<(ConversationEventRow & { senderSuspended: boolean })[]> {
  const rows = await db
    .select({ event: conversationEvents, suspendedAt: users.suspendedAt })
    .from(conversationEvents)
    .leftJoin(users, eq(users.id, conversationEvents.senderId))
    .where(eq(conversationEvents.conversationId, conversationId))
    .orderBy(asc(conversationEvents.id))
    .limit(5000);
  return rows.map((r) => ({ ...r.event, senderSuspended: r.suspendedAt !== null }));
}

/** Whether anyone ever reported the conversation (its reports may all be dismissed). */
export async function wasReported(db: Db, conversationId: string): Promise<boolean> {
  const rows = await db
    .select({ id: conversationReports.id })
    .from(conversationReports)
    .where(eq(conversationReports.conversationId, conversationId))
    .limit(1);
  return rows.length > 0;
}

/** Closes the conversation's open reports; how many were open. */
export async function resolveConversationReports(
  db: Db,
  conversationId: string,
  now: Date,
): Promise<number> {
  const closed = await db
    .update(conversationReports)
    .set({ resolvedAt: now })
    .where(
      and(
        eq(conversationReports.conversationId, conversationId),
        isNull(conversationReports.resolvedAt),
      ),
    )
    .returning({ id: conversationReports.id });
  return closed.length;
}

/** An audit line of a moderator's read or dismissal of a reported conversation. */
export async function logConversationModeration(
  db: Db,
  moderator: { id: string; email: string },
  action: 'read_conversation' | 'dismiss_conversation',
  conversationId: string,
): Promise<void> {
  await logModeratorAction(db, moderator, action, { conversationId });
}
