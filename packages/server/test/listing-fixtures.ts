import type { z } from 'zod';
import type { Listing, listingCreateSchema } from '@campus-books/common/listing.schemas';
import { activeCampus } from '@campus-books/common/active-campus';
import { callRoute, dataOf, type ApiCallOptions } from '@campus-books/common/call-route';
import { listings } from '../src/db/schema';
import { campusValues } from './campus-values';
import { createUploadedImage } from './support/test-uploaded-image';
import type { TestApp, TestUser } from './helpers';
import { appInjector } from './api-caller';

/** The body of a listing's creation, as the route table types it. */
export type ListingCreateBody = ApiCallOptions<'POST /api/listing/create'>['body'];

const DEFAULT_LISTING_BODY = {
  name: 'Calculus: Early Transcendentals',
  courseNumber: '211',
  description: 'Barely used, no highlighting.',
  address: 'The main library, front desk',
  condition: 'good',
  regularPrice: 20,
  discountPrice: 0,
  imageUrls: ['https://images.example.edu/calculus-cover.jpg'],
  type: 'sale',
} satisfies z.input<typeof listingCreateSchema>;

/**
 * The original API's one flag per school, which a listing's body may still carry: the test
 * campus's second school chosen, the others not.
 */
const schoolFlags = (): Record<string, boolean> =>
  Object.fromEntries(activeCampus().schoolKeys.map((key, i) => [key, i === 1]));

/**
 * A body the create form would send (spec section 3 defaults), typed as the merge it is, so a
 * typed call of the route table holds it to the listing's schema. Its schools (as the original
 * API's flags) and major are the test campus's.
 */
export function listingBody<Overrides extends Record<string, unknown> = Record<never, never>>(
  overrides: Overrides = {} as Overrides,
): Omit<typeof DEFAULT_LISTING_BODY & { major: string }, keyof Overrides> & Overrides {
  const major = campusValues.major(0).value;
  return { ...schoolFlags(), ...DEFAULT_LISTING_BODY, major, ...overrides };
}

/**
 * Creates a listing through the API as `user` and returns the answer. Listings accept only the
 * user's own uploads, so unless `imageUrls` is given, one processed upload of theirs is made.
 */
export async function createListingAs(
  t: TestApp,
  user: TestUser,
  overrides: Record<string, unknown> = {},
): Promise<Listing> {
  const imageUrls = overrides.imageUrls ?? [await createUploadedImage(t, user.id)];
  // The overrides may be what the schema refuses (a test's bad value), so the body is not held to it.
  const body = listingBody({ ...overrides, imageUrls }) as ListingCreateBody;
  const res = await callRoute(appInjector(t.app), 'POST /api/listing/create', { as: user, body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.ok ? '' : res.text}`);
  return dataOf(res);
}

type ListingInsert = typeof listings.$inferInsert;

/** Inserts listing rows directly (search tests need exact dates and statuses). */
export async function insertListings(
  t: TestApp,
  userId: string,
  rows: Partial<ListingInsert>[],
): Promise<string[]> {
  const inserted = await t.database.db
    .insert(listings)
    .values(
      rows.map((row) => ({
        userId,
        name: 'Some Book',
        courseNumber: '101',
        condition: 'good' as const,
        regularPrice: 10,
        imageUrls: ['https://images.example.edu/cover.jpg'],
        ...row,
      })),
    )
    .returning({ id: listings.id });
  return inserted.map((r) => r.id);
}
