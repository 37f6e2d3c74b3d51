import { HOME_RECENT_COUNT } from '@campus-books/common/constants';
import type { Listing } from '@campus-books/common/listing.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/listing/get?type=sale&limit=4: the home page's 'Recent Additions'. */
export function getRecentListings(signal?: AbortSignal): Promise<Listing[]> {
  return apiCall('GET /api/listing/get', {
    query: { type: 'sale', limit: HOME_RECENT_COUNT },
    signal,
  });
}

export const recentListingsQueryOptions = queryOptions({
  queryKey: queryKeys.listings.recent,
  // The section simply stays hidden when this fails; the failure is only logged (spec).
  queryFn: ({ signal }) =>
    getRecentListings(signal).catch((error: unknown) => {
      console.error('Could not load recent listings', error);
      throw error;
    }),
  retry: false,
});

export function useRecentListings() {
  return useQuery(recentListingsQueryOptions);
}
