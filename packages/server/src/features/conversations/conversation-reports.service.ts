import type {
  ConversationReportInput,
  ReportedConversation,
  ReportedConversationThread,
} from '@campus-books/common/moderation.schemas';
import type { UserRow } from '../../db/schema';
import { setsOfEvents } from './offer-sets';
import { roleOf } from '../../deal/deal';
import { conflict, notFound } from '../../lib/errors';
import {
  findAllEvents,
  findConversationsWithParticipants,
  findOpenConversationReports,
  insertConversationReport,
  logConversationModeration,
  resolveConversationReports,
  wasReported,
} from './conversation-reports.repository';
import { isConversationId } from './conversations.repository';
import {
  getParticipantConversation,
  toEvent,
  type ConversationDeps,
} from './conversations.service';

export const ALREADY_REPORTED_CONVERSATION = 'You already reported this conversation';
const NOT_REPORTED = 'No reported conversation has this id';
const NOTHING_TO_DISMISS = 'This conversation has no open reports';

/**
 * A participant reports the conversation: from now on (until a moderator dismisses it) the campus
 * moderators may read it. Once per student and conversation (the unique key decides, so parallel
 * copies make one report).
 */
export async function reportConversation(
  deps: ConversationDeps,
  reporter: UserRow,
  conversationId: string,
  input: ConversationReportInput,
): Promise<{ listingName: string }> {
  const conversation = await getParticipantConversation(deps, reporter, conversationId);
  const inserted = await insertConversationReport(deps.db, {
    conversationId: conversation.id,
    reporterId: reporter.id,
    reason: input.reason,
    note: input.note || null,
  });
  if (!inserted) throw conflict(ALREADY_REPORTED_CONVERSATION);
  return { listingName: conversation.listingName };
}

type OpenReport = Awaited<ReturnType<typeof findOpenConversationReports>>[number];
type Participants = Awaited<ReturnType<typeof findConversationsWithParticipants>>[number];

function toReported(row: Participants, reports: OpenReport[]): ReportedConversation {
  const { conversation, seller, buyer } = row;
  const person = (account: Participants['seller']) => ({
    id: account?.id ?? null,
    username: account?.username ?? null,
    suspended: account?.suspendedAt != null,
  });
  return {
    id: conversation.id,
    listing: { id: conversation.listingId, name: conversation.listingName },
    seller: person(seller),
    buyer: person(buyer),
    reports: reports.map((r) => ({
      by: roleOf(r.reporterId, conversation),
      reason: r.reason,
      note: r.note,
      createdAt: r.createdAt.toISOString(),
    })),
  };
}

/** Conversations with open reports, by oldest open report; who reported what, never the messages. */
export async function reportedConversations(
  deps: ConversationDeps,
): Promise<ReportedConversation[]> {
  const open = await findOpenConversationReports(deps.db);
  const ids = [...new Set(open.map((r) => r.conversationId))];
  const rows = await findConversationsWithParticipants(deps.db, ids);
  const byId = new Map(rows.map((row) => [row.conversation.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row
      ? [
          toReported(
            row,
            open.filter((r) => r.conversationId === id),
          ),
        ]
      : [];
  });
}

/**
 * A moderator reads a reported conversation, every event included (a suspended student's too,
 * marked). Only while a report is open; the read is written to the audit log in the same
 * transaction, so no read goes unrecorded.
 */
export async function readReportedConversation(
  deps: ConversationDeps,
  moderator: UserRow,
  conversationId: string,
): Promise<ReportedConversationThread> {
  if (!isConversationId(conversationId)) throw notFound(NOT_REPORTED);
  return deps.db.transaction(async (tx) => {
    const open = await findOpenConversationReports(tx, conversationId);
    const [row] = await findConversationsWithParticipants(tx, [conversationId]);
    if (open.length === 0 || !row) throw notFound(NOT_REPORTED);
    await logConversationModeration(tx, moderator, 'read_conversation', conversationId);
    const events = await findAllEvents(tx, conversationId);
    const sets = await setsOfEvents(tx, row.conversation, events);
    return {
      ...toReported(row, open),
      events: events.map((e, i) => ({
        ...toEvent(e, row.conversation, sets[i]),
        hiddenFromOthers: e.senderSuspended,
      })),
    };
  });
}

/** The reports were unfounded (or dealt with): closed, logged, and the conversation private again. */
export async function dismissConversationReports(
  deps: ConversationDeps,
  moderator: UserRow,
  conversationId: string,
): Promise<void> {
  if (!isConversationId(conversationId)) throw notFound(NOT_REPORTED);
  await deps.db.transaction(async (tx) => {
    const closed = await resolveConversationReports(tx, conversationId, deps.now());
    // A conversation never reported stays as unknown to the moderators as a made-up id.
    if (closed === 0) {
      throw (await wasReported(tx, conversationId))
        ? conflict(NOTHING_TO_DISMISS)
        : notFound(NOT_REPORTED);
    }
    await logConversationModeration(tx, moderator, 'dismiss_conversation', conversationId);
  });
}
