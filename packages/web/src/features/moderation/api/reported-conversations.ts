import type { ApiMessage } from '@campus-books/common/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/moderation/conversations: who reported which conversation (no messages). */
export function useReportedConversations() {
  return useQuery({
    queryKey: queryKeys.moderation.conversations,
    queryFn: ({ signal }) => apiCall('GET /api/moderation/conversations', { signal }),
  });
}

/**
 * GET /api/moderation/conversations/{id}: the messages, read only when the moderator asks (each
 * read is logged), once: never refetched behind their back.
 */
export function useReportedConversationThread(conversationId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.moderatorRead(conversationId),
    queryFn: ({ signal }) =>
      apiCall('GET /api/moderation/conversations/:id', { params: { id: conversationId }, signal }),
    enabled,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: false,
  });
}

/** POST /api/moderation/conversations/{id}/dismiss, or the moderation routes' suspend. */
export type ConversationAction =
  { kind: 'dismiss'; conversationId: string } | { kind: 'suspend'; userId: string; reason: string };

export function useConversationAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: ConversationAction): Promise<ApiMessage> =>
      action.kind === 'dismiss'
        ? apiCall('POST /api/moderation/conversations/:id/dismiss', {
            params: { id: action.conversationId },
          })
        : apiCall('POST /api/moderation/users/:userId/suspend', {
            params: { userId: action.userId },
            body: { reason: action.reason },
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.moderation.all }),
  });
}
