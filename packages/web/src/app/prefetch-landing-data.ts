import type { LandingPage } from '@campus-books/common/server-rendering';
import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router';
import { webPaths } from '../config/paths';
import { CoursePage, HomePage, ListingPage, SearchPage } from './router';
import { courseQueryOptions } from '../features/courses/api/get-course';
import { recentListingsQueryOptions } from '../features/home/api/get-recent-listings';
import { listingQueryOptions } from '../features/listings/api/get-listing';
import { searchListingsQueryOptions } from '../features/search/api/search-listings';
import {
  addressWithDefaultStatus,
  filtersToApiQuery,
  readFilters,
} from '../features/search/search-filters';

function decodeSegment(segment: string | undefined): string | null {
  if (!segment) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * Which landing page an address shows, read by the router's own matching (the server renders these
 * pages from the same reading, so it loads exactly what the page will ask for).
 */
export function matchLandingPage(pathname: string, search: string): LandingPage | null {
  if (matchPath(webPaths.home.pattern, pathname)) return { kind: 'home' };
  if (matchPath(webPaths.search.pattern, pathname)) {
    const location = addressWithDefaultStatus(search);
    if (location) return { kind: 'redirect', location };
    return { kind: 'search', query: filtersToApiQuery(readFilters(new URLSearchParams(search))) };
  }
  // matchPath leaves a parameter as the address has it (the router decodes it for the page).
  const listingId = decodeSegment(matchPath(webPaths.listing.pattern, pathname)?.params.listingId);
  if (listingId) return { kind: 'listing', listingId };
  const code = decodeSegment(matchPath(webPaths.course.pattern, pathname)?.params.code);
  if (code) return { kind: 'course', code };
  return null;
}

/** Loads a landing page's code (the router's page then renders without suspending). */
export function loadLandingPageCode(page: LandingPage): Promise<unknown> {
  switch (page.kind) {
    case 'redirect':
      return Promise.resolve();
    case 'home':
      return HomePage.load();
    case 'search':
      return SearchPage.load();
    case 'listing':
      return ListingPage.load();
    case 'course':
      return CoursePage.load();
  }
}

/**
 * Starts loading the code and the API request of the page the visitor lands on as soon as the app's
 * code runs, side by side, instead of one after the other once React has rendered the route: the page
 * shows its listings (and so its largest image) round trips sooner. The router's lazy pages import the
 * same modules (the browser loads each once) and the page's query has the same key, so both take over
 * what was started here. Failures are left to the page. (The query options are small and imported
 * here directly, so the request needs no chunk first.) For the app shell only: a server-rendered page
 * brought its data.
 */
export function prefetchLandingData(queryClient: QueryClient, location: Location): void {
  const page = matchLandingPage(location.pathname, location.search);
  if (!page) return;
  void loadLandingPageCode(page);
  switch (page.kind) {
    case 'redirect':
      return;
    case 'home':
      void queryClient.prefetchQuery(recentListingsQueryOptions);
      return;
    case 'search':
      void queryClient.prefetchInfiniteQuery(searchListingsQueryOptions(page.query));
      return;
    case 'listing':
      void queryClient.prefetchQuery(listingQueryOptions(page.listingId));
      return;
    case 'course':
      void queryClient.prefetchQuery(courseQueryOptions(page.code));
  }
}
