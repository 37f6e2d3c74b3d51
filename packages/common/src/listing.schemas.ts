import { z } from 'zod';
import { activeCampus } from './active-campus';
import {
  SEARCH_STATUSES,
  SEARCH_TYPES,
  CONDITIONS,
  LISTING_STATUSES,
  LISTING_TYPES,
  MAX_IMAGES_ON_CREATE,
  MAX_IMAGES_PER_LISTING,
  MAX_PAGE_SIZE,
  NAME_MAX_LENGTH,
  PAGE_SIZE,
  PRICE_MAX,
  PRICE_MIN,
  SHORT_TEXT_MAX_LENGTH,
  TEXT_MAX_LENGTH,
} from './constants';
import { apiSchemas, dateTimeSchema } from './api';
import { MESSAGES } from './messages';
import { cleanText, isLinkText } from './text';
import './zod-messages';
import { bookListingFields, publisherCoverIsAnImage } from './book.schemas';

/** At most two decimals: a price is dollars and cents, never rounded silently. */
const hasCents = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

const price = (messages: { required: string; notNumber: string; range: string; cents: string }) =>
  z
    .number({
      // An empty price box reads as NaN in the form: it is missing, not of the wrong kind.
      error: (issue) =>
        issue.input === undefined || issue.input === null || Number.isNaN(issue.input)
          ? messages.required
          : messages.notNumber,
    })
    .min(PRICE_MIN, messages.range)
    .max(PRICE_MAX, messages.range)
    .refine(hasCents, messages.cents);

/** An image reference in a listing or avatar. The upload pipeline narrows this to the caller's own uploads. */
export const imageUrlSchema = z
  .string({ error: MESSAGES.imageUrl })
  .max(500, MESSAGES.imageUrl)
  .refine(isLinkText, MESSAGES.imageUrl)
  .refine((url) => /^https?:\/\//i.test(url) || url.startsWith('/api/'), MESSAGES.imageUrl);

/**
 * A listing's schools: keys of the campus's schools (its configuration's `schools[].key`), stored in
 * the campus's order, each once. The seed's clients sent one boolean per school instead
 * (`{"<key>": true}`); those are read as this list too (foldSchoolFlags).
 */
const listingSchoolsSchema = z
  .array(z.string({ error: MESSAGES.schoolFlag }).max(40, MESSAGES.schoolFlag), {
    error: MESSAGES.schoolFlag,
  })
  .max(20, MESSAGES.schoolFlag)
  .transform((keys, ctx) => {
    const campus = activeCampus();
    const known = keys.map((key) => campus.schoolKey(key));
    known.forEach((key, index) => {
      if (key !== undefined) return;
      ctx.addIssue({
        code: 'custom',
        path: [index],
        message: `is not a school of this campus (${campus.schoolKeys.join(', ')})`,
      });
    });
    if (known.includes(undefined)) return z.NEVER;
    return campus.schoolKeys.filter((key) => known.includes(key));
  })
  .meta({ description: "Keys of the campus's schools (GET /api/campus: schools[].key)" });

/**
 * Reads the seed's one boolean per school (`{"<key>": true, "<other key>": false}`, with the
 * campus's keys) into `schools`, beside any `schools` list sent: what the listing routes do before
 * they validate a body, so clients written for the original API keep working.
 */
export function foldSchoolFlags(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const campus = activeCampus();
  const record = body as Record<string, unknown>;
  const flagged = campus.schoolKeys.filter((key) => key in record);
  if (flagged.length === 0) return body;
  const folded: Record<string, unknown> = { ...record };
  const chosen = flagged.filter((key) => folded[key] === true);
  const bad = flagged.filter((key) => typeof folded[key] !== 'boolean');
  for (const key of flagged) delete folded[key];
  // A flag that is not a boolean is refused as the list would be: named, by the schema.
  const listed = Array.isArray(folded.schools) ? (folded.schools as unknown[]) : [];
  folded.schools = [...listed, ...chosen, ...bad.map((key) => ({ notABoolean: key }))];
  return folded;
}

const listingFields = {
  name: cleanText({ error: MESSAGES.nameRequired, required: MESSAGES.nameRequired })
    .min(1, MESSAGES.nameRequired)
    .max(NAME_MAX_LENGTH, MESSAGES.nameTooLong),
  courseNumber: z
    .union([z.string(), z.number().int().nonnegative()], { error: MESSAGES.courseNumberRequired })
    .transform(String)
    .pipe(
      cleanText({ error: MESSAGES.courseNumberRequired })
        .min(1, MESSAGES.courseNumberRequired)
        .max(20, MESSAGES.courseNumberTooLong),
    ),
  description: cleanText({ error: MESSAGES.descriptionText, multiline: true })
    .max(TEXT_MAX_LENGTH, MESSAGES.descriptionTooLong)
    .default(''),
  address: cleanText({ error: MESSAGES.addressText })
    .max(SHORT_TEXT_MAX_LENGTH, MESSAGES.addressTooLong)
    .default(''),
  // null reads as empty: a listing as the API answers it can be sent back unchanged.
  pickupLocation: cleanText({ error: MESSAGES.pickupLocationText })
    .max(SHORT_TEXT_MAX_LENGTH, MESSAGES.pickupLocationTooLong)
    .nullish(),
  condition: z.enum(CONDITIONS, { error: MESSAGES.conditionChoice }).default('good'),
  regularPrice: price({
    required: MESSAGES.priceRequired,
    notNumber: MESSAGES.priceNotNumber,
    range: MESSAGES.priceRange,
    cents: MESSAGES.priceCents,
  }),
  discountPrice: price({
    required: MESSAGES.discountNotNumber,
    notNumber: MESSAGES.discountNotNumber,
    range: MESSAGES.discountRange,
    cents: MESSAGES.discountCents,
  }).default(0),
  major: cleanText({ error: MESSAGES.majorText })
    .max(100, MESSAGES.majorUnknown)
    .refine((m) => m === '' || activeCampus().majorValues.has(m), MESSAGES.majorUnknown)
    .default(''),
  type: z.enum(LISTING_TYPES, { error: MESSAGES.typeChoice }).optional(),
  schools: listingSchoolsSchema.default([]),
  ...bookListingFields,
};

/** Update only (spec section 5): the regular price is not lower than the discount price. */
const discountNotAboveRegular = {
  error: MESSAGES.discountAboveRegular,
  path: ['regularPrice'],
};

/**
 * POST /api/listing/create. Unknown fields (userRef, _id, status, …) are dropped, never stored. The
 * discount rule is the update's only, as the spec says (the form has no discount field).
 */
export const listingCreateSchema = z
  .object({
    ...listingFields,
    imageUrls: z
      .array(imageUrlSchema, { error: MESSAGES.imagesRequired })
      .min(1, MESSAGES.imagesRequired)
      .max(MAX_IMAGES_ON_CREATE, MESSAGES.imagesOnCreate),
  })
  .refine(publisherCoverIsAnImage.check, publisherCoverIsAnImage.issue);
export type ListingCreateInput = z.infer<typeof listingCreateSchema>;

/** POST /api/listing/update/{id}: the same body, up to 6 images, and regular ≥ discount price. */
export const listingUpdateSchema = z
  .object({
    ...listingFields,
    imageUrls: z
      .array(imageUrlSchema, { error: MESSAGES.imagesRequired })
      .min(1, MESSAGES.imagesRequired)
      .max(MAX_IMAGES_PER_LISTING, MESSAGES.imagesPerListing),
  })
  .refine((l) => l.regularPrice >= l.discountPrice, discountNotAboveRegular)
  .refine(publisherCoverIsAnImage.check, publisherCoverIsAnImage.issue);
export type ListingUpdateInput = z.infer<typeof listingUpdateSchema>;

/**
 * Reads the seed's search parameters, one per school (`?<key>=true`, with the campus's keys),
 * into `schools` beside any sent: what the search route does before it validates its query, so the
 * links and clients of the original API keep working. `false` is no filter, as it was.
 */
export function foldSchoolParams(query: unknown): unknown {
  if (typeof query !== 'object' || query === null) return query;
  const campus = activeCampus();
  const record = query as Record<string, unknown>;
  const flagged = campus.schoolKeys.filter((key) => key in record);
  if (flagged.length === 0) return query;
  const folded: Record<string, unknown> = { ...record };
  const listed = typeof folded.schools === 'string' ? folded.schools.split(',') : [];
  for (const key of flagged) {
    const value = folded[key];
    delete folded[key];
    if (value === 'true') listed.push(key);
    // Anything but true or false: refused by name, as before.
    else if (value !== 'false') folded[key] = value;
  }
  if (listed.length > 0) folded.schools = listed.join(',');
  return folded;
}
const indexParam = (max: number) =>
  z
    .string()
    .regex(/^\d{1,7}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().max(max, `must be at most ${max}`));
const choiceOf = (what: string) => ({ error: `is not a ${what} we know` });

/** GET /api/listing/get query (spec section 7); unknown or malformed values are refused with a 400. */
export const listingSearchSchema = z.strictObject(
  {
    searchTerm: cleanText().max(100, 'must be at most 100 characters').optional(),
    condition: z.enum(['con-all', ...CONDITIONS], choiceOf('condition')).optional(),
    major: cleanText().max(100, 'must be at most 100 characters').optional(),
    courseNumber: cleanText().max(20, 'must be at most 20 characters').optional(),
    subject: cleanText()
      .toUpperCase()
      .refine((s) => activeCampus().subjectCodes.has(s), 'is not a subject of this campus')
      .optional(),
    status: z.enum(SEARCH_STATUSES, choiceOf('status')).optional(),
    type: z.enum(SEARCH_TYPES, choiceOf('type')).optional(),
    /** Whole dollars: only listings whose regularPrice is at most this (as an alert's maxPrice). */
    maxPrice: z
      .string()
      .regex(/^\d{1,8}$/, 'must be a whole number of dollars')
      .transform(Number)
      .pipe(z.number().max(PRICE_MAX, `must be at most ${PRICE_MAX}`))
      .optional(),
    sort: z.enum(['regularPrice', 'createdAt'], choiceOf('sort')).optional(),
    order: z.enum(['asc', 'desc'], choiceOf('order')).optional(),
    startIndex: indexParam(1_000_000).optional(),
    limit: indexParam(MAX_PAGE_SIZE).pipe(z.number().min(1, 'must be at least 1')).optional(),
    /** Comma-separated school keys: only listings for every one of them. */
    schools: z
      .string()
      .max(400, 'is too long')
      .transform((text) =>
        text
          .split(',')
          .map((key) => key.trim())
          .filter(Boolean),
      )
      .pipe(listingSchoolsSchema)
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? 'is not a search parameter' : undefined,
  },
);
export type ListingSearchQuery = z.infer<typeof listingSearchSchema>;
export const DEFAULT_SEARCH_LIMIT = PAGE_SIZE;

/**
 * A listing as the API answers it (spec section 7 field names): every answer carrying a listing is
 * serialised through this schema, so a column not named here never leaves the server.
 */
export const listingSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    courseNumber: z.string(),
    description: z.string(),
    address: z.string(),
    pickupLocation: z.string().nullable(),
    condition: z.enum(CONDITIONS),
    regularPrice: z.number(),
    discountPrice: z.number(),
    imageUrls: z.array(z.string()),
    schools: z
      .array(z.string())
      .describe(
        "Keys of the campus's schools it is for, in the campus's order. Also sent as one boolean " +
          'field per school key of the campus ({"<key>": true, …}) for clients of the original API.',
      ),
    school: z.string().describe("The chosen schools' labels joined by ', '"),
    major: z.string(),
    type: z.enum(LISTING_TYPES),
    userRef: z.string().describe("The seller's user id"),
    status: z.enum(LISTING_STATUSES),
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
    isbn: z.string().nullable().describe('ISBN-13; null when the seller gave none'),
    authors: z.string().nullable(),
    edition: z.string().nullable(),
    subject: z.string().nullable().describe('Subject code of the course (ECON)'),
    publisherCover: z
      .string()
      .nullable()
      .describe("The image URL that is the publisher's cover, if one of the images is"),
    expiresAt: dateTimeSchema.describe(
      'When the listing leaves search unless its seller confirms it',
    ),
    confirmedAt: dateTimeSchema.describe('When the seller last confirmed it is available'),
    pendingUntil: dateTimeSchema
      .nullable()
      .describe('Pending: on hold for a buyer whose offer was accepted, until then; else null'),
  })
  // The school flags (one boolean per key of the campus) ride beside the documented fields.
  .catchall(z.unknown())
  .register(apiSchemas, { id: 'Listing' });
export type Listing = z.infer<typeof listingSchema>;

/** What a listing's one-click mail link does (GET and POST /api/listing-link/{token}). */
export const LISTING_LINK_ACTIONS = ['extend', 'sold', 'remove'] as const;
export type ListingLinkAction = (typeof LISTING_LINK_ACTIONS)[number];
