import './zod-config';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './app/app-providers';
import { prefetchLandingData } from './app/prefetch-landing-data';
import { queryClient } from './app/query-client';
import { AppRoutes } from './app/router';
import { readSsrState, seedQueryClient } from './app/ssr-state';
import './index.css';

// The service worker (src/sw.ts) keeps the app and the listings seen for offline use; it is
// registered once the page has loaded, so it never competes with the first paint.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  });
}

const container = document.getElementById('root')!;
const ssrState = readSsrState(document);

if (ssrState) {
  // A server-rendered page (docs/decisions/012): the answers it was rendered with go into the cache
  // under the same keys, so hydration renders exactly the server's HTML and fetches nothing.
  seedQueryClient(queryClient, ssrState.queries);
  prefetchLandingData(queryClient, window.location, { serverRendered: true });
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
} else {
  prefetchLandingData(queryClient, window.location, { serverRendered: false });
  // A transition lets React render the first page in slices, yielding to the browser between them,
  // rather than in one long task that would hold up a phone's main thread.
  startTransition(() => {
    createRoot(container).render(
      <AppProviders queryClient={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AppProviders>,
    );
  });
}
