import { z } from 'zod';
import { apiSchemas, succeeded } from './api';

/** What a student is told about, each chosen on its own (issue 44): the notifications page's rows. */
export const NOTIFICATION_KINDS = [
  'messages',
  'offers',
  'meetups',
  'ratings',
  'alerts',
  'term',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How it reaches them: a mail, a push to their devices (both, or neither, per kind). */
export const NOTIFICATION_CHANNELS = ['mail', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** What each kind is called where a student chooses. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  messages: 'Messages',
  offers: 'Offers and holds',
  meetups: 'Meetups',
  ratings: 'Ratings',
  alerts: 'Alerts',
  term: 'End of term',
};

/**
 * The channels each kind is sent on today (the page offers only these): an offer's words come in the
 * messages' mail, and meetups, ratings and the end of term have no push yet.
 */
export const NOTIFICATION_CHANNELS_OF: Record<NotificationKind, readonly NotificationChannel[]> = {
  messages: ['mail', 'push'],
  offers: ['push'],
  meetups: ['mail'],
  ratings: ['mail'],
  alerts: ['mail', 'push'],
  term: ['mail'],
};

const channelsSchema = z.object({
  mail: z.boolean().describe('Send mails of this kind'),
  push: z.boolean().describe("Push this kind to the student's devices"),
});
export type NotificationChannels = z.infer<typeof channelsSchema>;

export const NOTIFICATION_MESSAGES = {
  time: 'Enter a time like 22:00',
  sameTimes: 'Quiet hours need different start and end times',
} as const;

const localTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, NOTIFICATION_MESSAGES.time);

/** Local times (HH:MM, the campus's time zone); an end before the start runs past midnight. */
export const quietHoursSchema = z
  .object({ start: localTime, end: localTime })
  .refine((hours) => hours.start !== hours.end, {
    message: NOTIFICATION_MESSAGES.sameTimes,
    path: ['end'],
  });
export type QuietHours = z.infer<typeof quietHoursSchema>;

/** A student's choices: per kind, mail and push; quiet hours hold both until they end. */
export const notificationSettingsSchema = z
  .object({
    kinds: z.object(
      Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, channelsSchema])) as Record<
        NotificationKind,
        typeof channelsSchema
      >,
    ),
    quietHours: quietHoursSchema
      .nullable()
      .describe('Pushes and mails wait until the end, then come as one digest per channel'),
  })
  .register(apiSchemas, { id: 'NotificationSettings' });
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** The choices and the time zone their quiet hours are read in (the campus's). */
export const notificationSettingsAnswerSchema = notificationSettingsSchema.extend({
  timeZone: z.string().describe("The campus's time zone, in which quiet hours are read"),
});

export const notificationSettingsSavedSchema = succeeded({
  ...notificationSettingsAnswerSchema.shape,
  message: z.string(),
});

/**
 * What a student who never chose gets (what was sent before the choices existed): every kind by
 * mail and push but the end-of-term mail, which a student asks for; no quiet hours.
 */
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  kinds: Object.fromEntries(
    NOTIFICATION_KINDS.map((kind) => [kind, { mail: kind !== 'term', push: true }]),
  ) as Record<NotificationKind, NotificationChannels>,
  quietHours: null,
};
