import type { Listing, ListingUpdateInput } from '@campus-books/common/listing.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { invalidateListings } from '../../../api/listings/invalidate-listings';
import { requireListingId } from './require-listing-id';

/** POST /api/listing/update/{id}: owner only; answers the updated listing. */
export async function updateListing({
  listingId,
  input,
}: {
  listingId: string;
  input: ListingUpdateInput;
}): Promise<Listing> {
  return requireListingId(
    await apiCall('POST /api/listing/update/:id', {
      params: { id: listingId },
      body: input,
    }),
  );
}

export function useUpdateListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateListing,
    onSuccess: () => invalidateListings(queryClient),
  });
}
