import { z } from 'zod';
import { apiErrorSchema, apiSchemas, dateTimeSchema } from './api';
import {
  CONDITIONS,
  MAX_IMAGES_ON_CREATE,
  NAME_MAX_LENGTH,
  PRICE_MAX,
  TEXT_MAX_LENGTH,
} from './constants';
import { imageUrlSchema, listingSchema } from './listing.schemas';
import { cleanText, isLinkText } from './text';

/** How many drafts a seller keeps at once, and publishes in one "Publish all". */
export const MAX_DRAFTS = 30;

/** The text rule of every stored field (`cleanText`), without the listing's required minimums. */
const text = (max: number, multiline = false) => cleanText({ multiline }).max(max);

/**
 * A draft's values as the seller has typed them so far: every field optional, each of its kind and
 * length. The listing's rules (a name, a price, a photo…) are checked when the draft is published.
 */
export const draftFieldsSchema = z.strictObject({
  isbn: text(20).optional(),
  name: text(NAME_MAX_LENGTH).optional(),
  authors: text(300).optional(),
  edition: text(100).optional(),
  subject: text(10).optional(),
  courseNumber: text(20).optional(),
  condition: z.enum(CONDITIONS).optional(),
  regularPrice: z.number().min(0).max(PRICE_MAX).nullable().optional(),
  description: text(TEXT_MAX_LENGTH, true).optional(),
  /** Which of the images is the publisher's cover the server imported, if any. */
  publisherCover: z.string().max(500).refine(isLinkText).nullable().optional(),
});
export type DraftFields = z.infer<typeof draftFieldsSchema>;

/** PUT /api/drafts/{id}: the draft's values and its photos (the seller's own uploads). */
export const draftSaveSchema = z.strictObject({
  fields: draftFieldsSchema,
  imageUrls: z.array(imageUrlSchema).max(MAX_IMAGES_ON_CREATE).default([]),
});
export type DraftSaveInput = z.input<typeof draftSaveSchema>;
export type DraftSaveBody = z.output<typeof draftSaveSchema>;

export const draftSchema = z
  .object({
    id: z.uuid(),
    fields: draftFieldsSchema,
    imageUrls: z.array(z.string()),
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  })
  .register(apiSchemas, { id: 'ListingDraft' });
export type Draft = z.infer<typeof draftSchema>;

/** POST /api/drafts/publish: the drafts to publish (each becomes at most one listing, ever). */
export const draftPublishSchema = z.strictObject({
  draftIds: z.array(z.uuid()).min(1).max(MAX_DRAFTS),
});

/** What became of one draft: its listing, or why not (the draft stays). */
export const draftOutcomeSchema = z.discriminatedUnion('status', [
  z.object({ draftId: z.string(), status: z.literal('published'), listing: listingSchema }),
  z.object({
    draftId: z.string(),
    status: z.literal('failed'),
    statusCode: z.number().int().describe('The status a single create would have answered'),
    message: apiErrorSchema.shape.message,
    errors: apiErrorSchema.shape.errors,
  }),
]);
export type DraftOutcome = z.infer<typeof draftOutcomeSchema>;

export const draftPublishAnswerSchema = z
  .object({
    success: z.literal(true),
    published: z.number().int(),
    failed: z.number().int(),
    results: z.array(draftOutcomeSchema),
  })
  .register(apiSchemas, { id: 'DraftPublishReport' });
export type DraftPublishAnswer = z.infer<typeof draftPublishAnswerSchema>;

/** GET and PUT /api/term-end-mail: whether the student gets the end-of-term mail. */
export const termEndMailSchema = z.strictObject({
  subscribed: z
    .boolean()
    .describe('At the end of a term: the courses in demand they can sell into, and the shelf flow'),
});
