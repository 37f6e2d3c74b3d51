import type { Listing } from '@campus-books/common/listing.schemas';
import { ApiError } from '../../../lib/api-client';

/** A saved listing must come back with its id: never navigate to /listing/undefined. */
export function requireListingId(listing: Listing | null | undefined): Listing {
  if (!listing || typeof listing._id !== 'string' || listing._id === '') {
    throw new ApiError('Something went wrong', 0);
  }
  return listing;
}
