import { z } from 'zod';
import { REPORT_NOTE_MAX, REPORT_REASONS, type AnyReportReason } from './constants';
import { apiSchemas, dateTimeSchema } from './api';
import { formatCount } from './display';
import { conversationEventSchema } from './conversation.schemas';
import { listingSchema } from './listing.schemas';
import { cleanText } from './text';

/** What the audit log records: the moderators' actions, and a seller's delete of a reported listing. */
export const MODERATION_ACTIONS = [
  'dismiss',
  'remove',
  'restore',
  'suspend',
  'unsuspend',
  'remove_rating',
  'dismiss_rating',
  'seller-delete',
  'read_conversation',
  'dismiss_conversation',
] as const;

/** POST /api/reports/{listingId}: a reason of the fixed list and an optional note. */
export const reportSchema = z.object({
  reason: z.enum(REPORT_REASONS, { error: 'Choose a reason from the list' }),
  note: cleanText({ multiline: true, error: 'The note must be text' })
    .max(REPORT_NOTE_MAX, `The note must be at most ${formatCount(REPORT_NOTE_MAX)} characters`)
    .optional(),
});
export type ReportInput = z.infer<typeof reportSchema>;

/** Why a moderator removes a listing or suspends a seller: mailed to the seller, kept in the log. */
export const moderationReasonSchema = z.object({
  reason: cleanText({
    multiline: true,
    error: 'Say why',
    required: 'Say why: the seller reads it',
  }).max(1000, 'The reason must be at most 1,000 characters'),
});
export type ModerationReasonInput = z.infer<typeof moderationReasonSchema>;

/** A reported listing in the moderators' queue (GET /api/moderation/queue). */
export const moderationQueueItemSchema = z
  .object({
    listing: listingSchema,
    /** Null when the seller deleted their account while it was reported (the listing is kept). */
    seller: z
      .object({
        _id: z.string(),
        username: z.string(),
        email: z.string(),
        suspended: z.boolean(),
      })
      .nullable(),
    reports: z.array(
      z.object({
        reason: z.enum(REPORT_REASONS),
        note: z.string().nullable(),
        createdAt: dateTimeSchema,
        /** Whether it counted toward the automatic hide (a verified, old enough reporter within
         * their daily number); every report is shown. */
        countsTowardHide: z.boolean(),
      }),
    ),
    /** When the seller deleted it while reported: kept for the moderators only; dismissing deletes it. */
    deletedBySellerAt: dateTimeSchema.nullable(),
    /** When its seller asked for a review (those come first in the queue). */
    reviewRequestedAt: dateTimeSchema.nullable(),
  })
  .register(apiSchemas, { id: 'ModerationQueueItem' });
export type ModerationQueueItem = z.infer<typeof moderationQueueItemSchema>;

/** One line of the moderators' audit log (GET /api/moderation/log). */
export const moderationLogEntrySchema = z
  .object({
    _id: z.string(),
    moderatorEmail: z.string(),
    /** `seller-delete`: the seller deleted a listing under moderation (moderatorEmail is theirs). */
    action: z.enum(MODERATION_ACTIONS),
    listingId: z.string().nullable(),
    /** A rating removed, or whose reports were dismissed (features/ratings). */
    ratingId: z.string().nullable(),
    /** A reported conversation a moderator read, or whose reports were dismissed. */
    conversationId: z.string().nullable(),
    userId: z.string().nullable(),
    reason: z.string().nullable(),
    createdAt: dateTimeSchema,
  })
  .register(apiSchemas, { id: 'ModerationLogEntry' });
export type ModerationLogEntry = z.infer<typeof moderationLogEntrySchema>;

/** Why a student reports a conversation (POST /api/conversations/{id}/report); labelled by REPORT_REASON_LABELS. */
export const CONVERSATION_REPORT_REASONS = [
  'harassment',
  'spam_or_scam',
  'offensive',
  'other',
] as const satisfies readonly AnyReportReason[];
export type ConversationReportReason = (typeof CONVERSATION_REPORT_REASONS)[number];

/** POST /api/conversations/{id}/report: a reason of the list and an optional note (the report text rule). */
export const conversationReportSchema = z.object({
  reason: z.enum(CONVERSATION_REPORT_REASONS, { error: 'Choose a reason from the list' }),
  note: reportSchema.shape.note,
});
export type ConversationReportInput = z.infer<typeof conversationReportSchema>;

const participantSchema = z.object({
  id: z.string().nullable().describe('null: a deleted account'),
  username: z.string().nullable(),
  suspended: z.boolean(),
});

/** A conversation with open reports, as the moderators' queue lists it (no messages: reading is logged). */
export const reportedConversationSchema = z
  .object({
    id: z.string(),
    listing: z.object({ id: z.string().nullable(), name: z.string() }),
    seller: participantSchema,
    buyer: participantSchema,
    reports: z.array(
      z.object({
        by: z.enum(['buyer', 'seller']).nullable().describe('The reporter’s side'),
        reason: z.enum(CONVERSATION_REPORT_REASONS),
        note: z.string().nullable(),
        createdAt: dateTimeSchema,
      }),
    ),
  })
  .register(apiSchemas, { id: 'ReportedConversation' });
export type ReportedConversation = z.infer<typeof reportedConversationSchema>;

export const reportedConversationListSchema = z.object({
  conversations: z.array(reportedConversationSchema),
});

/** GET /api/moderation/conversations/{id}: a reported conversation with every event (logged). */
export const reportedConversationThreadSchema = reportedConversationSchema
  .extend({
    events: z
      .array(
        conversationEventSchema.extend({
          hiddenFromOthers: z
            .boolean()
            .describe('Written by a student suspended since: the other side no longer sees it'),
        }),
      )
      .describe('Oldest first'),
  })
  .register(apiSchemas, { id: 'ReportedConversationThread' });
export type ReportedConversationThread = z.infer<typeof reportedConversationThreadSchema>;
