import type { CurrentUser } from '@campus-books/common/account.schemas';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import { RenderedAtContext } from '../lib/render-clock';
import { SessionProvider } from '../lib/session';

/**
 * What every render of the app stands in, in the browser and on the server alike; only the router
 * differs (BrowserRouter in main.tsx, StaticRouter in entry-server.tsx).
 */
export function AppProviders({
  queryClient,
  initialUser,
  renderedAt = null,
  children,
}: {
  queryClient: QueryClient;
  /** Set when the server rendered the page: the user it rendered for. */
  initialUser?: CurrentUser | null;
  renderedAt?: number | null;
  children: ReactNode;
}) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <SessionProvider initialUser={initialUser}>
          <RenderedAtContext value={renderedAt}>{children}</RenderedAtContext>
        </SessionProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}
