import {
  PAGE_SIZE,
  TOTAL_COUNT_CAPPED_HEADER,
  TOTAL_COUNT_HEADER,
} from '@campus-books/common/constants';
import type { SearchResultPage } from '@campus-books/common/server-rendering';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiCallResponse } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** One page of results and the whole search's total (null if the answer carried none). */
export type { SearchResultPage };

function totalOf(headers: Headers): number | null {
  const value = headers.get(TOTAL_COUNT_HEADER);
  const total = value === null ? NaN : Number(value);
  return Number.isSafeInteger(total) && total >= 0 ? total : null;
}

/** GET /api/listing/get?{query}: one page of search results, with the search's total. */
export async function searchListings(
  query: Record<string, string>,
  startIndex: number,
  signal?: AbortSignal,
): Promise<SearchResultPage> {
  const { data, headers } = await apiCallResponse('GET /api/listing/get', {
    query: { ...query, startIndex: String(startIndex), limit: String(PAGE_SIZE) },
    signal,
  });
  return {
    listings: data,
    total: totalOf(headers),
    isTotalCapped: headers.get(TOTAL_COUNT_CAPPED_HEADER) === 'true',
  };
}

export const searchListingsQueryOptions = (query: Record<string, string>) =>
  infiniteQueryOptions({
    queryKey: queryKeys.listings.search(query),
    queryFn: ({ pageParam, signal }) => searchListings(query, pageParam, signal),
    initialPageParam: 0,
    // The next page starts at the count already loaded; a short page means there is no more.
    getNextPageParam: (lastPage, allPages) =>
      lastPage.listings.length < PAGE_SIZE
        ? undefined
        : allPages.reduce((n, page) => n + page.listings.length, 0),
  });

export function useSearchListings(query: Record<string, string>, options: { enabled: boolean }) {
  return useInfiniteQuery({ ...searchListingsQueryOptions(query), enabled: options.enabled });
}
