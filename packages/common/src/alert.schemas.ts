import { z } from 'zod';
import { activeCampus } from './active-campus';
import { apiSchemas, dateTimeSchema } from './api';
import { CONDITIONS, PRICE_MAX } from './constants';
import { parseIsbn, toIsbn13 } from './isbn';
import { cleanText } from './text';
import { NOTIFICATION_KIND_LABELS, type NotificationKind } from './notification.schemas';
import './zod-messages';

/** Alerts a student may keep at once. */
export const MAX_ALERTS_PER_USER = 20;

export const ALERT_MESSAGES = {
  nothingToWatch: 'Choose what to look for: a title, an ISBN, a course or a major',
  tooMany: `You can keep up to ${MAX_ALERTS_PER_USER} alerts: delete one first`,
  notFound: 'Alert not found',
  duplicate: 'You already have an alert for these filters: change one, or delete this alert',
  exists: 'You already have an alert for these filters: edit it to change how it mails you',
  badIsbn: 'That is not a valid ISBN',
  badSubject: 'Choose a subject from the list (such as ECON or MATH)',
  badMajor: 'Choose a major from the list',
  badPrice: 'The maximum price must be between 0 and 10,000,000, in dollars and cents',
  badUnsubscribe: 'This unsubscribe link is not valid or has expired',
  unsubscribed: 'You will get no more mails for this alert',
  unsubscribedSaved: 'You will get no more mails about your saved listings',
  unsubscribedBoth: 'You will get no more of these mails: the alerts and news of saved listings',
  unsubscribedMessages: 'You will get no more mails about unread messages',
  unsubscribedTermEnd: 'You will get no more end-of-term mails about the courses you can sell into',
} as const;

/** What an unsubscribe link stopped, in the words of its answer (alerts, saved listings, both). */
export function unsubscribedMessage(scope: {
  alerts: boolean;
  savedListings: boolean;
  termEndMail?: boolean;
  messageMails?: boolean;
  kinds?: NotificationKind[];
}): string {
  if (scope.kinds?.length && !scope.alerts && !scope.savedListings) {
    const names = scope.kinds.map((kind) => NOTIFICATION_KIND_LABELS[kind].toLowerCase());
    return `You will get no more mails about ${names.join(' and ')}`;
  }
  if (scope.messageMails && !scope.alerts && !scope.savedListings) {
    return ALERT_MESSAGES.unsubscribedMessages;
  }
  if (scope.termEndMail && !scope.alerts && !scope.savedListings) {
    return ALERT_MESSAGES.unsubscribedTermEnd;
  }
  if (scope.alerts && scope.savedListings) return ALERT_MESSAGES.unsubscribedBoth;
  return scope.savedListings ? ALERT_MESSAGES.unsubscribedSaved : ALERT_MESSAGES.unsubscribed;
}

/** '' and null mean "no filter"; text follows the shared text rule (no invisible characters…). */
const optionalText = (max: number) =>
  cleanText()
    .max(max)
    .nullish()
    .transform((s) => (s ? s : null));

const hasCents = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

/**
 * The filters of the search page, of a course page or of a book, kept as an alert. Every filter that
 * is set must hold for a new listing to match it.
 */
export const alertInputSchema = z
  .strictObject({
    searchTerm: optionalText(100),
    isbn: optionalText(20).refine((s) => s === null || parseIsbn(s).ok, ALERT_MESSAGES.badIsbn),
    subject: optionalText(10)
      .transform((s) => (s ? s.toUpperCase() : null))
      .refine((s) => s === null || activeCampus().subjectCodes.has(s), ALERT_MESSAGES.badSubject),
    courseNumber: optionalText(20),
    major: optionalText(100).refine(
      (s) => s === null || activeCampus().majorValues.has(s),
      ALERT_MESSAGES.badMajor,
    ),
    condition: z
      .enum([...CONDITIONS, 'con-all'])
      .nullish()
      .transform((c) => (c && c !== 'con-all' ? c : null)),
    school: z
      .string()
      .max(40)
      .transform((key, ctx) => {
        const known = activeCampus().schoolKey(key);
        if (known === undefined) {
          // As a choice outside any other list is answered (zod-messages.ts).
          ctx.addIssue({ code: 'custom', message: 'Choose one of the listed options' });
          return z.NEVER;
        }
        return known;
      })
      .meta({ description: "A key of the campus's schools (GET /api/campus: schools[].key)" })
      .nullish()
      .default(null),
    maxPrice: z
      .number()
      .min(0, ALERT_MESSAGES.badPrice)
      .max(PRICE_MAX, ALERT_MESSAGES.badPrice)
      .refine(hasCents, ALERT_MESSAGES.badPrice)
      .nullish()
      .default(null),
    /** One mail a day with the day's matches instead of one per match. */
    digest: z.boolean().default(false),
    paused: z.boolean().default(false),
  })
  .refine(
    (a) => a.searchTerm || a.isbn || a.subject || a.courseNumber || a.major,
    ALERT_MESSAGES.nothingToWatch,
  );

export type AlertInput = z.output<typeof alertInputSchema>;
/** What a client sends to create or edit an alert (every filter optional). */
export type AlertBody = z.input<typeof alertInputSchema>;

/** An alert as the API answers it. */
export const alertSchema = z
  .object({
    _id: z.string(),
    searchTerm: z.string().nullable(),
    isbn: z.string().nullable(),
    subject: z.string().nullable(),
    courseNumber: z.string().nullable(),
    major: z.string().nullable(),
    condition: z.enum(CONDITIONS).nullable(),
    school: z.string().nullable().describe("A key of the campus's schools"),
    maxPrice: z.number().nullable(),
    digest: z.boolean(),
    paused: z.boolean(),
    createdAt: dateTimeSchema,
  })
  .register(apiSchemas, { id: 'Alert' });
export type Alert = z.infer<typeof alertSchema>;

export const unsubscribeBodySchema = z.object({ token: z.string().min(1).max(2000).optional() });

/** GET /api/alerts/demand's question: a book by its ISBN, or a course. */
export const demandQuerySchema = z.strictObject({
  isbn: z
    .string()
    .max(20)
    .optional()
    .refine((s) => s === undefined || toIsbn13(s) !== null, 'is not a valid ISBN'),
  subject: z
    .string()
    .max(10)
    .transform((s) => s.toUpperCase())
    .refine((s) => activeCampus().subjectCodes.has(s), 'is not a subject of this campus')
    .optional(),
  courseNumber: cleanText().min(1).max(20).optional(),
});

/** A course of GET /api/alerts/most-wanted: students wanting it, listings offering it. */
export const wantedCourseSchema = z.object({
  subject: z.string(),
  courseNumber: z.string(),
  students: z.number().int(),
  listings: z.number().int(),
});
export type WantedCourse = z.infer<typeof wantedCourseSchema>;
