import type { LandingPage } from '@campus-books/common/server-rendering';
import { matchPath, type Params } from 'react-router';
import { webPaths } from '../config/paths';
import { AboutPage, CoursePage, HomePage, ListingPage, PrivacyPage, SearchPage } from './router';

/** The pages the server renders (docs/decisions/012). */
export type LandingPageKind = Exclude<LandingPage['kind'], 'redirect'>;

const LANDING_PAGES = {
  home: { pattern: webPaths.home.pattern, page: HomePage },
  search: { pattern: webPaths.search.pattern, page: SearchPage },
  listing: { pattern: webPaths.listing.pattern, page: ListingPage },
  course: { pattern: webPaths.course.pattern, page: CoursePage },
  about: { pattern: webPaths.about.pattern, page: AboutPage },
  privacy: { pattern: webPaths.privacy.pattern, page: PrivacyPage },
} as const;

/**
 * Which landing page's route an address is, by the router's own matching, with its parameters as the
 * address has them (the router decodes them for the page).
 */
export function matchLandingRoute(
  pathname: string,
): { kind: LandingPageKind; params: Params } | null {
  for (const kind of Object.keys(LANDING_PAGES) as LandingPageKind[]) {
    const match = matchPath(LANDING_PAGES[kind].pattern, pathname);
    if (match) return { kind, params: match.params };
  }
  return null;
}

/** Loads a landing page's code (the router's page then renders without suspending). */
export function loadLandingPageCode(kind: LandingPageKind): Promise<unknown> {
  return LANDING_PAGES[kind].page.load();
}
