import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

/**
 * GET /api/conversations/unread, for the header on every page (its own module: the header is in
 * every page's first load). A page with a live stream refreshes it at each event; elsewhere it is
 * asked again when the window regains focus, so no page holds a stream open just for the count.
 */
export function useUnreadCount(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.conversations.unread,
    queryFn: ({ signal }) =>
      apiCall('GET /api/conversations/unread', { signal }).then((answer) => answer.count),
    enabled,
    refetchOnWindowFocus: true,
  });
}
