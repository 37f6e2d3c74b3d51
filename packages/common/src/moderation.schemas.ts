import { z } from 'zod';
import { REPORT_NOTE_MAX, REPORT_REASONS } from './constants';
import { apiSchemas, dateTimeSchema } from './api';
import { formatCount } from './display';
import { listingSchema } from './listing.schemas';
import { cleanText } from './text';

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
    seller: z.object({
      _id: z.string(),
      username: z.string(),
      email: z.string(),
      suspended: z.boolean(),
    }),
    reports: z.array(
      z.object({
        reason: z.enum(REPORT_REASONS),
        note: z.string().nullable(),
        createdAt: dateTimeSchema,
      }),
    ),
  })
  .register(apiSchemas, { id: 'ModerationQueueItem' });
export type ModerationQueueItem = z.infer<typeof moderationQueueItemSchema>;

/** One line of the moderators' audit log (GET /api/moderation/log). */
export const moderationLogEntrySchema = z
  .object({
    _id: z.string(),
    moderatorEmail: z.string(),
    action: z.enum(['dismiss', 'remove', 'suspend', 'unsuspend']),
    listingId: z.string().nullable(),
    userId: z.string().nullable(),
    reason: z.string().nullable(),
    createdAt: dateTimeSchema,
  })
  .register(apiSchemas, { id: 'ModerationLogEntry' });
export type ModerationLogEntry = z.infer<typeof moderationLogEntrySchema>;
