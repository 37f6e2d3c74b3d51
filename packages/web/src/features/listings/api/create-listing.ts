import type { Listing, ListingCreateInput } from '@campus-books/common/listing.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateListings } from './invalidate-listings';
import { requireListingId } from './require-listing-id';

/** POST /api/listing/create: answers 201 with the new listing (owner = the signed-in user). */
export async function createListing(input: ListingCreateInput): Promise<Listing> {
  return requireListingId(
    await apiRequest<Listing>('/api/listing/create', { method: 'POST', body: input }),
  );
}

export function useCreateListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createListing,
    onSuccess: () => invalidateListings(queryClient),
  });
}
