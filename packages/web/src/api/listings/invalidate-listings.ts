import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../lib/query-keys';

/** After any listing change: search results, recent additions, own lists and the detail page refetch. */
export function invalidateListings(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.listings.all }),
    queryClient.invalidateQueries({ queryKey: queryKeys.listing.all }),
  ]).then(() => undefined);
}
