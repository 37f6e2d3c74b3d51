import { z } from 'zod';
import { MAJOR_VALUES, SCHOOL_FLAGS, type SchoolFlag } from './campus';
import {
  CONDITIONS,
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
  type Condition,
  type ListingStatus,
  type ListingType,
} from './constants';
import { MESSAGES } from './messages';

const price = (requiredMessage: string) =>
  z
    .number({ error: requiredMessage })
    .min(PRICE_MIN, MESSAGES.priceRange)
    .max(PRICE_MAX, MESSAGES.priceRange);

/** An image reference in a listing or avatar. The upload pipeline narrows this to the caller's own uploads. */
export const imageUrlSchema = z
  .string()
  .max(500)
  .refine((url) => /^https?:\/\//i.test(url) || url.startsWith('/api/'), 'Invalid image URL');

const schoolFlagFields = Object.fromEntries(
  SCHOOL_FLAGS.map((flag) => [flag, z.boolean().default(false)]),
) as Record<SchoolFlag, z.ZodDefault<z.ZodBoolean>>;

const listingFields = {
  name: z
    .string({ error: MESSAGES.nameRequired })
    .trim()
    .min(1, MESSAGES.nameRequired)
    .max(NAME_MAX_LENGTH, MESSAGES.nameTooLong),
  courseNumber: z
    .union([z.string(), z.number().int().nonnegative()], { error: MESSAGES.courseNumberRequired })
    .transform((v) => String(v).trim())
    .pipe(z.string().min(1, MESSAGES.courseNumberRequired).max(20, 'Course number is too long')),
  description: z.string().trim().max(TEXT_MAX_LENGTH).default(''),
  address: z.string().trim().max(SHORT_TEXT_MAX_LENGTH).default(''),
  pickupLocation: z.string().trim().max(SHORT_TEXT_MAX_LENGTH).optional(),
  condition: z.enum(CONDITIONS, { error: 'Choose a condition' }).default('good'),
  regularPrice: price(MESSAGES.priceRequired),
  discountPrice: price('Discount price must be a number').default(0),
  major: z
    .string()
    .trim()
    .max(100)
    .refine((m) => m === '' || MAJOR_VALUES.has(m), MESSAGES.majorUnknown)
    .default(''),
  type: z.enum(LISTING_TYPES).optional(),
  ...schoolFlagFields,
};

/** The discount is never above the regular price (a stored listing must stay valid for its next update). */
const discountNotAboveRegular = {
  error: MESSAGES.discountAboveRegular,
  path: ['regularPrice'],
};

/** POST /api/listing/create. Unknown fields (userRef, _id, status, …) are dropped, never stored. */
export const listingCreateSchema = z
  .object({
    ...listingFields,
    imageUrls: z
      .array(imageUrlSchema, { error: MESSAGES.imagesRequired })
      .min(1, MESSAGES.imagesRequired)
      .max(MAX_IMAGES_ON_CREATE, MESSAGES.imagesOnCreate),
  })
  .refine((l) => l.regularPrice >= l.discountPrice, discountNotAboveRegular);
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
  .refine((l) => l.regularPrice >= l.discountPrice, discountNotAboveRegular);
export type ListingUpdateInput = z.infer<typeof listingUpdateSchema>;

const booleanParam = z.enum(['true', 'false']);
const indexParam = (max: number) =>
  z
    .string()
    .regex(/^\d{1,7}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().max(max, `must be at most ${max}`));

/** GET /api/listing/get query (spec section 7); unknown or malformed values are refused with a 400. */
export const listingSearchSchema = z.strictObject(
  {
    searchTerm: z.string().trim().max(100).optional(),
    condition: z.enum(['con-all', ...CONDITIONS]).optional(),
    major: z.string().trim().max(100).optional(),
    courseNumber: z.string().trim().max(20).optional(),
    status: z.enum(['active_or_none', 'active']).optional(),
    type: z.enum([...LISTING_TYPES, 'all']).optional(),
    sort: z.enum(['regularPrice', 'createdAt']).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    startIndex: indexParam(1_000_000).optional(),
    limit: indexParam(MAX_PAGE_SIZE).pipe(z.number().min(1, 'must be at least 1')).optional(),
    ...(Object.fromEntries(SCHOOL_FLAGS.map((flag) => [flag, booleanParam.optional()])) as Record<
      SchoolFlag,
      z.ZodOptional<typeof booleanParam>
    >),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? 'is not a search parameter' : undefined,
  },
);
export type ListingSearchQuery = z.infer<typeof listingSearchSchema>;
export const DEFAULT_SEARCH_LIMIT = PAGE_SIZE;

/** A listing as the API answers it (spec section 7 field names). */
export type Listing = {
  _id: string;
  name: string;
  courseNumber: string;
  description: string;
  address: string;
  pickupLocation: string | null;
  condition: Condition;
  regularPrice: number;
  discountPrice: number;
  imageUrls: string[];
  /** The chosen schools' labels joined by ', ' (read by the detail page). */
  school: string;
  major: string;
  type: ListingType;
  userRef: string;
  status: ListingStatus;
  createdAt: string;
  updatedAt: string;
} & Record<SchoolFlag, boolean>;
