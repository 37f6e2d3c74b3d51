import { PAGE_SIZE } from '@campus-books/common/constants';
import type { Listing } from '@campus-books/common/listing.schemas';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/listing/get?{query}: one page of search results. */
export function searchListings(
  query: Record<string, string>,
  startIndex: number,
  signal?: AbortSignal,
): Promise<Listing[]> {
  const params = new URLSearchParams({
    ...query,
    startIndex: String(startIndex),
    limit: String(PAGE_SIZE),
  });
  return apiRequest<Listing[]>(`/api/listing/get?${params.toString()}`, { signal });
}

export const searchListingsQueryOptions = (query: Record<string, string>) =>
  infiniteQueryOptions({
    queryKey: ['listings', 'search', query],
    queryFn: ({ pageParam, signal }) => searchListings(query, pageParam, signal),
    initialPageParam: 0,
    // The next page starts at the count already loaded; a short page means there is no more.
    getNextPageParam: (lastPage, allPages) =>
      lastPage.length < PAGE_SIZE ? undefined : allPages.reduce((n, page) => n + page.length, 0),
  });

export function useSearchListings(query: Record<string, string>, options: { enabled: boolean }) {
  return useInfiniteQuery({ ...searchListingsQueryOptions(query), enabled: options.enabled });
}
