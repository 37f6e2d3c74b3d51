import type { CurrentUser } from '@campus-books/common/account.schemas';
import { SSR_STATE_ELEMENT_ID } from '@campus-books/common/server-rendering';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';

/**
 * What a server-rendered page hands the browser (docs/decisions/012-server-rendering.md): the
 * answers it rendered with, under the query keys the page reads, the signed-in user and the time
 * it rendered at, so the first client render is the server's render and hydration changes nothing.
 * It travels as JSON in a non-executable <script type="application/json"> (no inline script, so
 * the page's Content-Security-Policy stays as strict as it is).
 */
export interface SsrState {
  /** Epoch milliseconds of the server's render ("listed 3 days ago" is computed from it). */
  renderedAt: number;
  user: CurrentUser | null;
  queries: SsrQuery[];
  /** Set by the service worker on a page it kept, opened offline (src/sw.ts). */
  offlineCopy?: boolean;
}

/** One query's answer, or its failure (a missing listing renders the not-found page). */
export type SsrQuery =
  | { queryKey: QueryKey; data: unknown }
  | { queryKey: QueryKey; error: { message: string; status: number } };

/** Puts the answers into a query cache: the server's before it renders, the browser's before it hydrates. */
export function seedQueryClient(queryClient: QueryClient, queries: SsrQuery[]): void {
  for (const query of queries) {
    if ('data' in query) {
      queryClient.setQueryData(query.queryKey, query.data);
      continue;
    }
    queryClient
      .getQueryCache()
      .build(queryClient, { queryKey: query.queryKey })
      .setState({
        status: 'error',
        fetchStatus: 'idle',
        error: new ApiError(query.error.message, query.error.status),
        errorUpdatedAt: Date.now(),
      });
  }
}

/** The state a server-rendered page carries, or null for the plain app shell. */
export function readSsrState(document: Document): SsrState | null {
  const text = document.getElementById(SSR_STATE_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as SsrState;
  } catch {
    return null;
  }
}
