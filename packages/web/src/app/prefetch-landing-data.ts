import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router';
import { webPaths } from '../config/paths';
import { recentListingsQueryOptions } from '../features/home/api/get-recent-listings';
import { listingQueryOptions } from '../features/listings/api/get-listing';
import { searchListingsQueryOptions } from '../features/search/api/search-listings';
import { filtersToApiQuery, readFilters } from '../features/search/search-filters';

function decodeSegment(segment: string | undefined): string | null {
  if (!segment) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * Starts loading the code and the API request of the page the visitor lands on as soon as the app's
 * code runs, side by side, instead of one after the other once React has rendered the route: the page
 * shows its listings (and so its largest image) round trips sooner. The router's lazy pages import the
 * same modules (the browser loads each once) and the page's query has the same key, so both take over
 * what was started here. Only the pages visitors arrive at from links; failures are left to the page.
 * (The query options are small and imported here directly, so the request needs no chunk first.)
 */
export function prefetchLandingData(queryClient: QueryClient, location: Location): void {
  const { pathname, search } = location;
  if (matchPath(webPaths.home.pattern, pathname)) {
    void import('../features/home/home-page');
    void queryClient.prefetchQuery(recentListingsQueryOptions);
    return;
  }
  if (matchPath(webPaths.search.pattern, pathname)) {
    void import('../features/search/search-page');
    const query = filtersToApiQuery(readFilters(new URLSearchParams(search)));
    void queryClient.prefetchInfiniteQuery(searchListingsQueryOptions(query));
    return;
  }
  // matchPath leaves the parameter as the address has it (the router decodes it for the page).
  const listingId = decodeSegment(matchPath(webPaths.listing.pattern, pathname)?.params.listingId);
  if (listingId) {
    void import('../features/listings/listing-page');
    void queryClient.prefetchQuery(listingQueryOptions(listingId));
  }
}
