import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Ask even when the browser says it is offline: the service worker may answer from its cache.
      networkMode: 'offlineFirst',
      // A 4xx will not change by asking again; network and server errors may.
      retry: (failureCount, error) =>
        failureCount < 2 &&
        !(error instanceof ApiError && error.status >= 400 && error.status < 500),
    },
    // Never held back to be replayed later: offline, the api client refuses the write at once.
    mutations: { networkMode: 'always' },
  },
});
