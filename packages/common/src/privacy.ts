import { z } from 'zod';
import { apiSchemas } from './api';

/** Days a "Download my data" link works (signed into the link; the mail and the pages say it). */
export const EXPORT_LINK_DAYS = 7;

/** GET /api/privacy: the installation's retention periods, so the page states the real ones. */
export const privacySettingsSchema = z
  .object({
    /** Days a copy of a mail is kept in the server's outbox folder (when it has no mail server). */
    outboxDays: z.number().int(),
    /** Days the day-by-day counts of searches that found nothing are kept. */
    searchTermsDays: z.number().int(),
    /** Days a background job that failed for good is kept for the operator to inspect. */
    failedJobsDays: z.number().int(),
    /** Minutes a sign-in, sign-up or mail attempt counter covers (RATE_LIMIT_WINDOW_MINUTES). */
    attemptWindowMinutes: z.number().int(),
  })
  .register(apiSchemas, { id: 'PrivacySettings' });
export type PrivacySettings = z.infer<typeof privacySettingsSchema>;
