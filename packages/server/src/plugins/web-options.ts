/** What app.ts hands the web plugin: the landing pages' data, the signed-in user, the page cache. */
import type { CurrentUser } from '@campus-books/common/account.schemas';
import type { PublicConfig } from '@campus-books/common/api';
import type { Listing } from '@campus-books/common/listing.schemas';
import type { LandingPage, LandingPageData } from '@campus-books/common/server-rendering';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CacheRoom } from '../campuses/campus-cache-scope';
import type { PageHead } from './web-shell';

export type RenderedPage = Exclude<LandingPage, { kind: 'redirect' }>;

/** Loads a page's data with the API's own service functions (features; app.ts wires them). */
export type PageLoader = (
  app: FastifyInstance,
  page: RenderedPage,
  request: FastifyRequest,
) => Promise<LandingPageData | null>;

/** Each kind of landing page's loader. */
export type LandingPageLoaders = {
  [Kind in RenderedPage['kind']]: (
    app: FastifyInstance,
    page: Extract<LandingPage, { kind: Kind }>,
    request: FastifyRequest,
  ) => Promise<LandingPageData | null>;
};

/** What a page is rendered from beside its address, its visitor and the time. */
export interface LoadedPage {
  data: LandingPageData | null;
  /** A verified visitor's saved listings (the hearts on the cards). */
  saved: Listing[] | null;
  publicConfig: PublicConfig;
}

export interface ServerRenderingOptions {
  /** The web app's server build (a test may name a stand-in). */
  entry?: string;
  loaders: LandingPageLoaders;
  /** The signed-in user as GET /api/auth/session answers it, or null. */
  currentUser: (app: FastifyInstance, request: FastifyRequest) => Promise<CurrentUser | null>;
  /** A verified user's saved listings as GET /api/saved/get answers them. */
  savedListings: (app: FastifyInstance, userId: string) => Promise<Listing[]>;
  /** GET /api/config's answer. */
  publicConfig: (app: FastifyInstance) => PublicConfig;
  /** Keep signed-out visitors' pages in memory while the catalogue does not change. */
  pageCache?: PageCacheOptions;
}

/** Where the catalogue's changes are followed (the listing caches of features/search/listing-caches.ts). */
export interface PageCacheOptions {
  /** Bytes of pages (every encoding) kept at most, per campus; 0 keeps none. */
  maxBytes: number;
  /** The memory the campuses' parts of every cache share (campuses/campus-cache-scope.ts). */
  room: CacheRoom;
  /** How long a page is kept at most (its demand line and "listed 3 days ago" age with it). */
  ttlMs: number;
  /** Moves whenever the catalogue changed (a write of listings, features/search/listing-caches.ts). */
  generation(): number;
  /** Whether nothing changed since `generation` (on PostgreSQL, one read of the version). */
  ensureFresh(since: number): Promise<boolean>;
  /** A test's clock (epoch milliseconds): pages' times, and the time they are rendered at. */
  now?: () => number;
}

export interface WebPluginOptions {
  /** Folder of the built web app (tests point it at a small one). */
  distDir?: string;
  /** The head of /listing/:id (features/listings), or undefined for the plain shell. */
  listingPageHead?: (app: FastifyInstance, id: string) => Promise<PageHead | undefined>;
  /** Render the landing pages' first screen on the server (docs/decisions/012); else the shell. */
  serverRendering?: ServerRenderingOptions;
}
