import './zod-config';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { prefetchLandingData } from './app/prefetch-landing-data';
import { queryClient } from './app/query-client';
import { AppRoutes } from './app/router';
import { SessionProvider } from './lib/session';
import './index.css';

prefetchLandingData(queryClient, window.location);

// The service worker (src/sw.ts) keeps the app and the listings seen for offline use; it is
// registered once the page has loaded, so it never competes with the first paint.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  });
}

// A transition lets React render the first page in slices, yielding to the browser between them,
// rather than in one long task that would hold up a phone's main thread.
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </SessionProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
});
