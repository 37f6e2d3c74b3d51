import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

/** GET /api/conversations: the student's conversations, latest event first (one listing's with an id). */
export const conversationsQueryOptions = (listingId?: string) =>
  queryOptions({
    queryKey: queryKeys.conversations.list(listingId),
    queryFn: ({ signal }) =>
      apiCall('GET /api/conversations', { query: { listingId }, signal }).then(
        (answer) => answer.conversations,
      ),
  });

export function useConversations(listingId?: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...conversationsQueryOptions(listingId), enabled: options.enabled ?? true });
}
