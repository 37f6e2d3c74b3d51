import { z } from 'zod';
import { activeCampus } from './active-campus';
import { apiSchemas, dateTimeSchema, succeeded } from './api';

/** A suggestion is open until the other side answers; a newer one from either side takes its place. */
export const MEETUP_STATUSES = ['proposed', 'accepted', 'declined'] as const;
export type MeetupStatus = (typeof MEETUP_STATUSES)[number];

/** How far ahead a meetup can be suggested. */
export const MEETUP_MAX_DAYS_AHEAD = 60;

export const MEETUP_MESSAGES = {
  spotUnknown: 'Choose one of the meetup spots',
  timeRequired: 'Choose a date and time',
  timeInPast: 'Choose a time in the future',
  timeTooFar: `Choose a time within ${MEETUP_MAX_DAYS_AHEAD} days`,
  meetupNotFound: 'Meetup not found',
  notProposed: 'This meetup was already answered, or a newer one took its place',
  ownMeetup: 'The other student accepts your suggestion',
  notAccepted: 'The calendar entry is ready once the meetup is accepted',
} as const;

/** POST /api/meetups: a spot of the campus's list and a time (checked against the clock by the server). */
export const suggestMeetupSchema = z.strictObject({
  conversationId: z.string({ error: 'Say which conversation' }).max(100, 'Say which conversation'),
  spotId: z
    .string({ error: MEETUP_MESSAGES.spotUnknown })
    .refine((id) => activeCampus().meetupSpot(id) !== undefined, MEETUP_MESSAGES.spotUnknown),
  startsAt: z.iso.datetime({ offset: true, error: MEETUP_MESSAGES.timeRequired }),
});
export type SuggestMeetupInput = z.infer<typeof suggestMeetupSchema>;

export const meetupListQuerySchema = z.object({
  conversationId: z.string({ error: 'Say which conversation' }).max(100),
});

export const meetupSchema = z
  .object({
    id: z.string(),
    conversationId: z.string(),
    spot: z.object({
      id: z.string(),
      name: z.string(),
      place: z.string(),
      hours: z.string(),
      note: z.string().nullable(),
    }),
    startsAt: dateTimeSchema,
    status: z.enum(MEETUP_STATUSES),
    /** Who suggested it, from the viewer's side. */
    suggestedBy: z.enum(['me', 'other']),
    createdAt: dateTimeSchema,
  })
  .register(apiSchemas, { id: 'Meetup' });
export type Meetup = z.infer<typeof meetupSchema>;

export const meetupListSchema = z.object({ meetups: z.array(meetupSchema) });
export const meetupAnswerSchema = succeeded({ meetup: meetupSchema });
