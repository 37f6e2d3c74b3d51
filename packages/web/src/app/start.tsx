// The app itself: main.tsx (the page's entry script) loads it. The campus the server serves is set
// first (lib/campus.ts); then a server-rendered page is hydrated from the state it carries, and any
// other page is rendered here.
import '../zod-config';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './app-providers';
import { loadLandingPageCode, matchLandingRoute } from './landing-pages';
import { queryClient } from './query-client';
import { AppRoutes } from './router';
import { readSsrState, seedQueryClient } from './ssr-state';
import { loadCampus } from '../lib/campus';
import { noteApiAnswer } from '../lib/offline-status';

const container = document.getElementById('root')!;
const ssrState = readSsrState(document);
// Before anything renders: every page the server sends carries its campus (set here at once); the
// dev server's page has none, and it is fetched (GET /api/campus).
const campusSet = loadCampus();

/** Resolves in a task of its own: the browser may paint and handle input before what follows. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

if (ssrState) {
  // A server-rendered page (docs/decisions/012): the answers it was rendered with go into the cache
  // under the same keys, and its page's code is loaded first (main.tsx preloads it), so hydration
  // renders exactly the server's HTML in one pass and fetches nothing. Each step is a task of its
  // own after the app's code has run, so no step holds a phone's main thread for long.
  const route = matchLandingRoute(window.location.pathname);
  const pageCode = route ? loadLandingPageCode(route.kind) : Promise.resolve();
  void (async () => {
    await campusSet;
    await nextTask();
    seedQueryClient(queryClient, ssrState.queries);
    // A page the service worker kept, opened offline: the notice says it is what was seen last.
    if (ssrState.offlineCopy) noteApiAnswer(true);
    await pageCode.catch(() => undefined);
    await nextTask();
    // Hydrated in a transition: React works through the page in slices, yielding to the browser
    // between them, instead of one long task that would hold up a phone's main thread.
    startTransition(() => {
      hydrateRoot(
        container,
        <AppProviders
          queryClient={queryClient}
          initialUser={ssrState.user}
          renderedAt={ssrState.renderedAt}
        >
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </AppProviders>,
      );
    });
  })();
} else {
  // Its own chunk, which the shell's head preloads: a server-rendered page has no use for it.
  void Promise.all([import('./prefetch-landing-data'), campusSet]).then(
    ([{ prefetchLandingData }]) => prefetchLandingData(queryClient, window.location),
  );
  // A transition lets React render the first page in slices, yielding to the browser between them,
  // rather than in one long task that would hold up a phone's main thread.
  void campusSet.then(() =>
    startTransition(() => {
      createRoot(container).render(
        <AppProviders queryClient={queryClient}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </AppProviders>,
      );
    }),
  );
}
