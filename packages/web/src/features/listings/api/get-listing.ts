import type { Listing } from '@campus-books/common/listing.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/listing/get/{id}: one listing, for anyone. */
export function getListing(listingId: string, signal?: AbortSignal): Promise<Listing> {
  return apiCall('GET /api/listing/get/:id', { params: { id: listingId }, signal });
}

export const listingQueryOptions = (listingId: string) =>
  queryOptions({
    queryKey: queryKeys.listing.one(listingId),
    queryFn: ({ signal }) => getListing(listingId, signal),
    // A listing the server rendered as not found is not asked for again when the page hydrates.
    retryOnMount: false,
  });

export function useListing(listingId: string | undefined) {
  return useQuery({ ...listingQueryOptions(listingId ?? ''), enabled: Boolean(listingId) });
}
