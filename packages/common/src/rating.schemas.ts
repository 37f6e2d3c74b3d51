import { z } from 'zod';
import { apiSchemas, dateTimeSchema, succeeded } from './api';
import { formatCount } from './display';
import { listingSchema } from './listing.schemas';
import { cleanText } from './text';

/** What went well: the tags of a thumbs up. */
export const POSITIVE_RATING_TAGS = [
  'on_time',
  'as_described',
  'friendly',
  'easy_to_reach',
] as const;
/** What went wrong: the tags of a thumbs down. */
export const NEGATIVE_RATING_TAGS = ['no_show', 'not_as_described'] as const;
export const RATING_TAGS = [...POSITIVE_RATING_TAGS, ...NEGATIVE_RATING_TAGS] as const;
export type RatingTag = (typeof RATING_TAGS)[number];

export const RATING_TAG_LABELS: Record<RatingTag, string> = {
  on_time: 'On time',
  as_described: 'As described',
  friendly: 'Friendly',
  easy_to_reach: 'Easy to reach',
  no_show: 'No-show',
  not_as_described: 'Not as described',
};

/** The longest comment, in characters after the text rule. */
export const RATING_COMMENT_MAX_LENGTH = 500;
/** A share of positive ratings is shown from this many ratings up (fewer say little). */
export const RATING_SHARE_MIN_COUNT = 3;
/** Ratings are revealed when both sides rated, or this many days after the sale. */
export const RATING_REVEAL_DAYS = 14;

export const RATING_MESSAGES = {
  thumbRequired: 'Choose thumbs up or thumbs down',
  tagUnknown: 'Choose tags from the list',
  tagSide: 'These tags do not match your thumbs up or down',
  commentTooLong: `A comment is at most ${formatCount(RATING_COMMENT_MAX_LENGTH)} characters`,
  alreadyRated: 'You already rated this exchange',
  exchangeNotFound: 'Exchange not found',
  ratingNotFound: 'Rating not found',
  reasonTooLong: 'A reason is at most 500 characters',
  otherDeleted: 'The other student deleted their account: this exchange cannot be rated',
} as const;

const ratingTagSchema = z.enum(RATING_TAGS, { error: RATING_MESSAGES.tagUnknown });

/** POST /api/ratings/exchanges/{id}: a thumb, tags of its side (each once), an optional comment. */
export const rateExchangeSchema = z
  .strictObject({
    positive: z.boolean({ error: RATING_MESSAGES.thumbRequired }),
    tags: z
      .array(ratingTagSchema, { error: RATING_MESSAGES.tagUnknown })
      .max(RATING_TAGS.length, RATING_MESSAGES.tagUnknown)
      .default([])
      .transform((tags) => [...new Set(tags)]),
    comment: cleanText({ multiline: true })
      .max(RATING_COMMENT_MAX_LENGTH, RATING_MESSAGES.commentTooLong)
      .optional()
      .transform((text) => (text ? text : null)),
  })
  .superRefine((value, ctx) => {
    const allowed: readonly string[] = value.positive ? POSITIVE_RATING_TAGS : NEGATIVE_RATING_TAGS;
    if (value.tags.some((tag) => !allowed.includes(tag))) {
      ctx.addIssue({ code: 'custom', path: ['tags'], message: RATING_MESSAGES.tagSide });
    }
  });
export type RateExchangeInput = z.input<typeof rateExchangeSchema>;

/** POST /api/ratings/{id}/report: why (optional). */
export const reportRatingSchema = z.strictObject({
  reason: cleanText({ multiline: true })
    .max(500, RATING_MESSAGES.reasonTooLong)
    .optional()
    .transform((text) => (text ? text : null)),
});

/** POST /api/ratings/{id}/remove (moderators): why, for the audit log. */
export const removeRatingSchema = reportRatingSchema;

const studentSchema = z.object({
  id: z.string().nullable(),
  /** null: a deleted account. */
  username: z.string().nullable(),
});

/** A rating as shown once revealed: never the rater's e-mail. */
export const ratingSchema = z
  .object({
    id: z.string(),
    positive: z.boolean(),
    tags: z.array(z.enum(RATING_TAGS)),
    comment: z.string().nullable(),
    /** What the rater was in the exchange. */
    raterRole: z.enum(['buyer', 'seller']),
    rater: studentSchema,
    createdAt: dateTimeSchema,
  })
  .register(apiSchemas, { id: 'Rating' });
export type Rating = z.infer<typeof ratingSchema>;

/** A recorded exchange (a listing sold to a student) as one of its two students sees it. */
export const exchangeSchema = z
  .object({
    id: z.string(),
    listing: z.object({ id: z.string().nullable(), name: z.string() }),
    role: z.enum(['buyer', 'seller']),
    other: studentSchema,
    soldAt: dateTimeSchema,
    /** Both ratings show from then on (both rated, or the time ran out). */
    revealed: z.boolean(),
    revealAt: dateTimeSchema,
    /** The viewer can still rate it (not yet rated, the other account exists). */
    canRate: z.boolean(),
    mine: ratingSchema.nullable(),
    /** The other student's rating of the viewer: null until revealed (or when none, or removed). */
    theirs: ratingSchema.nullable(),
    /** Whether the other student has rated (never what), so the viewer knows the wait. */
    theyRated: z.boolean(),
  })
  .register(apiSchemas, { id: 'Exchange' });
export type Exchange = z.infer<typeof exchangeSchema>;

export const exchangeListSchema = z.object({
  exchanges: z.array(exchangeSchema),
  /** Exchanges the viewer can still rate. */
  toRate: z.number().int(),
  /** Days after a sale both ratings show at the latest, rated or not (RATING_REVEAL_DAYS). */
  revealDays: z.number().int(),
});
export type ExchangeList = z.infer<typeof exchangeListSchema>;

export const ratedSchema = succeeded({ exchange: exchangeSchema });

/** A student's public profile (`/u/{id}`): never an e-mail. */
export const publicProfileSchema = z
  .object({
    id: z.string(),
    username: z.string(),
    memberSince: dateTimeSchema,
    completedExchanges: z.number().int(),
    ratingCount: z.number().int(),
    /** Share of thumbs up, 0–100; null under RATING_SHARE_MIN_COUNT ratings. */
    positivePercent: z.number().int().nullable(),
    topTags: z.array(z.object({ tag: z.enum(RATING_TAGS), count: z.number().int() })),
    /** Revealed ratings with a comment, newest first. */
    comments: z.array(ratingSchema),
    /** Listings on sale now (the one visibility rule: only what anyone may see). */
    listings: z.array(listingSchema),
  })
  .register(apiSchemas, { id: 'PublicProfile' });
export type PublicProfile = z.infer<typeof publicProfileSchema>;

/** A reported rating in the moderators' queue. */
export const reportedRatingSchema = z.object({
  rating: ratingSchema,
  ratedUser: studentSchema,
  listingName: z.string(),
  reports: z.number().int(),
  reasons: z.array(z.string()),
  lastReportedAt: dateTimeSchema,
});
export const reportedRatingListSchema = z.object({ ratings: z.array(reportedRatingSchema) });
export type ReportedRating = z.infer<typeof reportedRatingSchema>;

/** "8 of 10 positive" as a share, or null when too few ratings to say. */
export function positivePercent(positive: number, total: number): number | null {
  return total < RATING_SHARE_MIN_COUNT ? null : Math.round((positive / total) * 100);
}
