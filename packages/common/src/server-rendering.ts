import type { CurrentUser } from './account.schemas';
import type { CampusConfig } from './campus-config';
import type { WantedCourse } from './alert.schemas';
import type { PublicConfig } from './api';
import type { CourseAnswer } from './book.schemas';
import type { SearchedListing } from './consortium-listing';
import type { Listing } from './listing.schemas';
import type { PrivacySettings } from './privacy';

/**
 * The contract between the server and the web app's server renderer (docs/decisions/012): which
 * landing page an address shows (the web app reads the address with its router's own rules), the
 * data the server loads for it with the API's own service functions, and the rendered page.
 */
export type LandingPage =
  | { kind: 'home' }
  /** The query the search page sends to GET /api/listing/get, before paging. */
  | { kind: 'search'; query: Record<string, string> }
  | { kind: 'listing'; listingId: string }
  | { kind: 'course'; code: string }
  /** The policy pages: readable without scripts, as a policy should be. */
  | { kind: 'about' }
  | { kind: 'privacy' }
  /** An address the page itself would replace (a search without a status filter): a redirect. */
  | { kind: 'redirect'; location: string };

/** One page of search results as the web app holds it: the answer and its X-Total-Count. */
export interface SearchResultPage {
  /** A partner campus's listings carry their campus (consortium sharing). */
  listings: SearchedListing[];
  total: number | null;
  /** More match than `total` (the server counts up to a cap). */
  isTotalCapped: boolean;
}

/** What each landing page is rendered with: exactly what its API call would have answered. */
export type LandingPageData =
  | {
      kind: 'home';
      recent: SearchedListing[];
      /** "Most wanted this week", as GET /api/alerts/most-wanted answers its courses. */
      mostWanted: WantedCourse[];
    }
  | { kind: 'search'; firstPage: SearchResultPage }
  | {
      kind: 'listing';
      listing: Listing;
      /**
       * The students wanting it, as GET /api/alerts/demand answers the page's demand line (the
       * listing's ISBN, else its course); null when the line would not be answered.
       */
      demand: number | null;
      /**
       * "Other copies on campus", as GET /api/listing/get?searchTerm={isbn}&limit=OTHER_COPIES_LIMIT
       * answers them (the listing itself among them); null for a listing without an ISBN.
       */
      otherCopies: Listing[] | null;
    }
  /** No such listing (or hidden from this visitor): the not-found page, with the API's message. */
  | { kind: 'listing'; listing: null; message: string }
  | { kind: 'course'; course: { success: true } & CourseAnswer; demand: number | null }
  | { kind: 'about' }
  /** The retention periods the page states, as GET /api/privacy answers them. */
  | { kind: 'privacy'; settings: PrivacySettings };

export interface RenderPageInput {
  /** The request's path and query, as the browser will see them. */
  url: string;
  page: LandingPage;
  /** Null when it could not be loaded: the page renders as it does before its data arrives. */
  data: LandingPageData | null;
  user: CurrentUser | null;
  /** GET /api/config's answer (the footer's links, the forms' rules). */
  publicConfig: PublicConfig;
  /** The campus served (GET /api/campus): the renderer makes it the active campus. */
  campus: CampusConfig;
  /** A verified user's saved listings (the hearts on the cards), else null. */
  saved: Listing[] | null;
  renderedAt: number;
  /** Told of an error React recovered from (the part is rendered in the browser instead). */
  onRecoverableError: (error: unknown) => void;
}

export interface RenderedPage {
  /** The app's HTML for <div id="root">, as it streams out of React. */
  html: AsyncIterable<string | Uint8Array>;
  /** The JSON the browser hydrates with (already safe inside a <script> element). */
  stateJson: string;
  /** 404 for a listing that does not exist, else 200. */
  status: number;
  /**
   * The code the page hydrates with: the app's and the page's own (sources, as the build manifest
   * names them), for the browser to load once the first screen is painted.
   */
  modules: string[];
}

/** The id of the <script type="application/json"> a server-rendered page carries its state in. */
export const SSR_STATE_ELEMENT_ID = 'ssr-state';

/**
 * The id of the <script type="application/json"> holding the addresses of the code a server-rendered
 * page hydrates with (a JSON array): the page's small entry script fetches them after the first paint.
 */
export const PAGE_MODULES_ELEMENT_ID = 'page-modules';

/** The event the web app sends on `window` once it has hydrated a server-rendered page. */
export const APP_HYDRATED_EVENT = 'campus-books:hydrated';

/** The web app's code past its entry script (the build manifest's name for it). */
export const APP_START_MODULE = 'src/app/start.tsx';

/**
 * What the app shell (every page the server does not render) loads past its entry script, which its
 * head preloads: the app, and the code that fetches a landing page's data side by side with its page
 * code when the shell shows one (a server-rendered page brought its data and loads only the app).
 */
export const APP_SHELL_MODULES = [APP_START_MODULE, 'src/app/prefetch-landing-data.ts'];

/** Each landing page's module (the build manifest's names for them). */
export const LANDING_PAGE_MODULES: Record<Exclude<LandingPage['kind'], 'redirect'>, string> = {
  home: 'src/features/home/home-page.tsx',
  search: 'src/features/search/search-page.tsx',
  listing: 'src/features/listings/listing-page.tsx',
  course: 'src/features/courses/course-page.tsx',
  about: 'src/features/about/about-page.tsx',
  privacy: 'src/features/privacy/privacy-page.tsx',
};

/** The module the web app's server build exports (packages/web/src/entry-server.tsx). */
export interface ServerRenderer {
  matchLandingPage(pathname: string, search: string): LandingPage | null;
  renderPage(input: RenderPageInput): Promise<RenderedPage>;
  /**
   * Whether a search page's address is the one the web app writes for its filters (the server keeps
   * signed-out visitors' pages of those addresses apart from the others').
   */
  isCanonicalAddress?(pathname: string, search: string): boolean;
  /**
   * Gives the renderer the campus served (the server's configuration, or a function giving the one
   * of the request at hand), for the calls made before or apart from renderPage: matchLandingPage and
   * isCanonicalAddress read a search address against the campus's subjects and schools. The renderer
   * has its own copy of common's modules, so the server's active campus is not its; call it once the
   * renderer is loaded.
   */
  setCampus?(campus: CampusConfig | (() => CampusConfig | undefined)): void;
}

/**
 * The element of every page the server sends that holds the campus it serves (GET /api/campus's
 * answer, as JSON): the web app reads it before it renders anything.
 */
export const CAMPUS_ELEMENT_ID = 'campus-config';

/** JSON that cannot end its <script> element early: every '<' is escaped (so are U+2028/9). */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
