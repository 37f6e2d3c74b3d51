import type { Listing, ListingCreateInput } from '@campus-books/common/listing.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { invalidateListings } from '../../../api/listings/invalidate-listings';
import { requireListingId } from './require-listing-id';

/**
 * POST /api/listing/create: answers 201 with the new listing (owner = the signed-in user). The
 * form session's `idempotencyKey` makes a repeated or doubled request answer the same listing.
 */
export async function createListing({
  input,
  idempotencyKey,
}: {
  input: ListingCreateInput;
  idempotencyKey: string;
}): Promise<Listing> {
  return requireListingId(
    await apiCall('POST /api/listing/create', {
      body: input,
      headers: { 'Idempotency-Key': idempotencyKey },
    }),
  );
}

export function useCreateListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createListing,
    onSuccess: () => invalidateListings(queryClient),
  });
}
