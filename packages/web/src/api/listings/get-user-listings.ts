import type { Listing } from '@campus-books/common/listing.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

/** GET /api/user/listings/{id}: the signed-in user's own listings, active and sold. */
export function getUserListings(userId: string, signal?: AbortSignal): Promise<Listing[]> {
  return apiCall('GET /api/user/listings/:id', { params: { id: userId }, signal });
}

export const userListingsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: queryKeys.listings.user(userId),
    queryFn: ({ signal }) => getUserListings(userId, signal),
  });

export function useUserListings(userId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...userListingsQueryOptions(userId), enabled: options.enabled ?? true });
}
