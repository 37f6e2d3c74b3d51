import type { Listing, listingCreateSchema } from '@campus-books/common/listing.schemas';
import type { z } from 'zod';

/** What the listing form edits: the input side of the server's own create/update schema. */
export type ListingFormValues = z.input<typeof listingCreateSchema>;

/** Create defaults (spec section 3): condition good, regular price 20, Bschool checked. */
export const NEW_LISTING_VALUES: ListingFormValues = {
  name: '',
  courseNumber: '',
  description: '',
  address: '',
  condition: 'good',
  regularPrice: 20,
  discountPrice: 0,
  major: '',
  Jepson: false,
  Bschool: true,
  Leadership: false,
  ArtScience: false,
  LawProfessional: false,
  imageUrls: [],
  isbn: '',
  authors: '',
  edition: '',
  subject: '',
};

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
    Jepson: listing.Jepson,
    Bschool: listing.Bschool,
    Leadership: listing.Leadership,
    ArtScience: listing.ArtScience,
    LawProfessional: listing.LawProfessional,
    imageUrls: listing.imageUrls,
    isbn: listing.isbn ?? '',
    authors: listing.authors ?? '',
    edition: listing.edition ?? '',
    subject: listing.subject ?? '',
    publisherCover: listing.publisherCover,
    ...(listing.pickupLocation ? { pickupLocation: listing.pickupLocation } : {}),
  };
}
