// The web app's server build (docs/decisions/012-server-rendering.md): `vite build --ssr` turns this
// into dist-ssr/entry-server.js, which the server imports to render the landing pages' first screen.
import './zod-config';
import {
  APP_START_MODULE,
  LANDING_PAGE_MODULES,
  type LandingPage,
  type LandingPageData,
  type RenderPageInput,
  type RenderedPage,
  scriptSafeJson,
  type ServerRenderer,
} from '@campus-books/common/server-rendering';
import { setActiveCampus } from '@campus-books/common/active-campus';
import { QueryClient } from '@tanstack/react-query';
import { PassThrough } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppProviders } from './app/app-providers';
import { matchLandingPage } from './app/prefetch-landing-data';
import { AppRoutes } from './app/router';
import { demandQuery, mostWantedQueryOptions } from './components/demand';
import { seedQueryClient, type SsrQuery, type SsrState } from './app/ssr-state';
import { courseQueryOptions } from './features/courses/api/get-course';
import { recentListingsQueryOptions } from './features/home/api/get-recent-listings';
import { listingQueryOptions } from './features/listings/api/get-listing';
import { otherCopiesQueryOptions } from './features/listings/api/get-other-copies';
import { privacySettingsQueryOptions } from './features/privacy/api/get-privacy-settings';
import { searchListingsQueryOptions } from './features/search/api/search-listings';
import { filtersToParams, readFilters } from './features/search/search-filters';
import { paths } from './config/paths';
import { queryKeys } from './lib/query-keys';

/** A render that has not finished by then (it never waits on the network) is given up. */
const RENDER_TIMEOUT_MS = 10_000;

/** The demand line's answer, so the line is on the first screen rather than fetched after it. */
function demandQueries(
  asked: Parameters<typeof demandQuery>[0],
  students: number | null,
): SsrQuery[] {
  const query = demandQuery(asked);
  return query === null || students === null
    ? []
    : [{ queryKey: queryKeys.demand(query), data: { success: true, students } }];
}

/** The page's answers under the keys its queries use, so the browser's cache takes them as they are. */
function queriesOf(page: LandingPage, data: LandingPageData | null): SsrQuery[] {
  if (!data || data.kind !== page.kind) return [];
  switch (page.kind) {
    case 'home':
      return data.kind === 'home'
        ? [
            { queryKey: recentListingsQueryOptions.queryKey, data: data.recent },
            {
              queryKey: mostWantedQueryOptions.queryKey,
              data: { success: true, courses: data.mostWanted },
            },
          ]
        : [];
    case 'search':
      return data.kind === 'search'
        ? [
            {
              queryKey: searchListingsQueryOptions(page.query).queryKey,
              data: { pages: [data.firstPage], pageParams: [0] },
            },
          ]
        : [];
    case 'listing': {
      if (data.kind !== 'listing') return [];
      const { queryKey } = listingQueryOptions(page.listingId);
      if (!data.listing) return [{ queryKey, error: { message: data.message, status: 404 } }];
      const { isbn } = data.listing;
      return [
        { queryKey, data: data.listing },
        ...demandQueries(data.listing, data.demand),
        // "Other copies on campus" is on the first screen, not fetched once the page hydrates.
        ...(isbn && data.otherCopies
          ? [{ queryKey: otherCopiesQueryOptions(isbn).queryKey, data: data.otherCopies }]
          : []),
      ];
    }
    case 'course':
      return data.kind === 'course'
        ? [
            { queryKey: courseQueryOptions(page.code).queryKey, data: data.course },
            ...demandQueries(data.course, data.demand),
          ]
        : [];
    case 'about':
      return [];
    case 'privacy':
      return data.kind === 'privacy'
        ? [{ queryKey: privacySettingsQueryOptions.queryKey, data: data.settings }]
        : [];
  }
}

function renderPage(input: RenderPageInput): Promise<RenderedPage> {
  // The page is the server's campus's (this build has its own copy of common's modules).
  setActiveCampus(input.campus);
  const state: SsrState = {
    renderedAt: input.renderedAt,
    user: input.user,
    queries: [
      ...queriesOf(input.page, input.data),
      // The footer's links: no request for them when the page hydrates.
      { queryKey: queryKeys.publicConfig, data: input.publicConfig },
      // The hearts on the cards: no request for them when the page hydrates.
      ...(input.saved ? [{ queryKey: queryKeys.saved, data: input.saved }] : []),
    ],
  };
  // A cache of its own per request (never shared between visitors). Queries run only in the browser:
  // one without an answer here renders as loading, as it does in the browser's first render.
  const queryClient = new QueryClient({
    defaultOptions: { queries: { staleTime: Infinity, retry: false } },
  });
  seedQueryClient(queryClient, state.queries);
  const status =
    input.data?.kind === 'listing' && input.data.listing === null && input.page.kind === 'listing'
      ? 404
      : 200;

  return new Promise((resolve, reject) => {
    const html = new PassThrough();
    const { pipe, abort } = renderToPipeableStream(
      <AppProviders
        queryClient={queryClient}
        initialUser={state.user}
        renderedAt={state.renderedAt}
      >
        <StaticRouter location={input.url}>
          <AppRoutes />
        </StaticRouter>
      </AppProviders>,
      {
        // Every part inline, in order: the HTML reads whole without JavaScript, and React's
        // out-of-order parts would need inline scripts the Content-Security-Policy refuses.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        // Everything the page shows is already in the cache; the only wait is a page's code
        // (loaded once per process). Waiting for all of it keeps the HTML whole without JavaScript.
        onAllReady() {
          clearTimeout(timer);
          pipe(html);
          const modules =
            input.page.kind === 'redirect'
              ? []
              : [APP_START_MODULE, LANDING_PAGE_MODULES[input.page.kind]];
          resolve({ html, stateJson: scriptSafeJson(state), status, modules });
        },
        onShellError(error) {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError(error) {
          input.onRecoverableError(error);
        },
      },
    );
    const timer = setTimeout(
      () => abort(new Error('Server rendering timed out')),
      RENDER_TIMEOUT_MS,
    );
  });
}

/** A search address as the search page writes it for its filters (search-filters.ts). */
function isCanonicalAddress(pathname: string, search: string): boolean {
  if (pathname !== paths.search) return search === '';
  return search === `?${filtersToParams(readFilters(new URLSearchParams(search))).toString()}`;
}

export const renderer: ServerRenderer = {
  matchLandingPage,
  renderPage,
  isCanonicalAddress,
  setCampus: setActiveCampus,
};
