import { activeCampus } from '@campus-books/common/active-campus';
import type { Listing, listingCreateSchema } from '@campus-books/common/listing.schemas';
import type { z } from 'zod';

/** What the listing form edits: the input side of the server's own create/update schema. */
export type ListingFormValues = z.input<typeof listingCreateSchema>;

/**
 * Every field of the form but those named (left out on purpose): what the values below satisfy, so
 * a field added to the schema is a compile error here until the form starts it.
 */
export type EveryFormField<LeftOut extends keyof ListingFormValues> = Record<
  Exclude<keyof ListingFormValues, LeftOut>,
  unknown
>;

/**
 * Create defaults (spec section 3): condition good, regular price 20. No school is checked: the
 * schools are the campus's, and none is every seller's.
 */
export const NEW_LISTING_VALUES: ListingFormValues = {
  name: '',
  courseNumber: '',
  description: '',
  address: '',
  condition: 'good',
  regularPrice: 20,
  discountPrice: 0,
  major: '',
  schools: [],
  imageUrls: [],
  isbn: '',
  authors: '',
  edition: '',
  subject: '',
} satisfies ListingFormValues & EveryFormField<'pickupLocation' | 'type' | 'publisherCover'>;

/** The update form starts from the stored listing; discountPrice is kept though not editable. */
export function listingFormValues(listing: Listing): ListingFormValues {
  return {
    name: listing.name,
    courseNumber: listing.courseNumber,
    description: listing.description,
    address: listing.address,
    condition: listing.condition,
    regularPrice: listing.regularPrice,
    discountPrice: listing.discountPrice,
    major: listing.major,
    // Only schools the form can show: one the campus no longer has would be refused on saving.
    schools: activeCampus().schoolKeys.filter((key) => listing.schools.includes(key)),
    imageUrls: listing.imageUrls,
    isbn: listing.isbn ?? '',
    authors: listing.authors ?? '',
    edition: listing.edition ?? '',
    subject: listing.subject ?? '',
    publisherCover: listing.publisherCover,
    ...(listing.pickupLocation ? { pickupLocation: listing.pickupLocation } : {}),
  } satisfies EveryFormField<'pickupLocation' | 'type'>;
}
