import type { LandingPage } from '@campus-books/common/server-rendering';
import type { QueryClient } from '@tanstack/react-query';
import { loadLandingPageCode, matchLandingRoute } from './landing-pages';
import { courseQueryOptions } from '../features/courses/api/get-course';
import { recentListingsQueryOptions } from '../features/home/api/get-recent-listings';
import { listingQueryOptions } from '../features/listings/api/get-listing';
import { privacySettingsQueryOptions } from '../features/privacy/api/get-privacy-settings';
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
 * Which landing page an address shows, and what it asks the API for (the server renders these pages
 * from the same reading, so it loads exactly what the page will ask for).
 */
export function matchLandingPage(pathname: string, search: string): LandingPage | null {
  const route = matchLandingRoute(pathname);
  switch (route?.kind) {
    case undefined:
      return null;
    case 'home':
      return { kind: 'home' };
    case 'search': {
      const location = addressWithDefaultStatus(search);
      if (location) return { kind: 'redirect', location };
      return { kind: 'search', query: filtersToApiQuery(readFilters(new URLSearchParams(search))) };
    }
    case 'listing': {
      const listingId = decodeSegment(route.params.listingId);
      return listingId ? { kind: 'listing', listingId } : null;
    }
    case 'course': {
      const code = decodeSegment(route.params.code);
      return code ? { kind: 'course', code } : null;
    }
    case 'about':
    case 'privacy':
      return { kind: route.kind };
  }
}

/**
 * Starts loading the code and the API request of the page the visitor lands on as soon as the app's
 * code runs, side by side, instead of one after the other once React has rendered the route: the page
 * shows its listings (and so its largest image) round trips sooner. The router's lazy pages import the
 * same modules (the browser loads each once) and the page's query has the same key, so both take over
 * what was started here. Failures are left to the page. For the app shell only (a server-rendered
 * page brought its data), so it is a chunk of its own, which the shell's head preloads beside the
 * app's (APP_SHELL_MODULES): the request still needs no page chunk first.
 */
export function prefetchLandingData(queryClient: QueryClient, location: Location): void {
  const page = matchLandingPage(location.pathname, location.search);
  if (!page || page.kind === 'redirect') return;
  void loadLandingPageCode(page.kind);
  switch (page.kind) {
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
      return;
    case 'about':
      return;
    case 'privacy':
      void queryClient.prefetchQuery(privacySettingsQueryOptions);
  }
}
