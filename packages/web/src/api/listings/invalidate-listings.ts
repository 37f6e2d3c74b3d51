import type { QueryClient } from '@tanstack/react-query';
import { listingKeys } from './listing-keys';

/** After any listing change: search results, recent additions, own lists and the detail page refetch. */
export function invalidateListings(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: listingKeys.all }),
    queryClient.invalidateQueries({ queryKey: ['listing'] }),
  ]).then(() => undefined);
}
