import type { ApiMessage } from '@campus-books/common/api';
import type {
  ModerationLogEntry,
  ModerationQueueItem,
} from '@campus-books/common/moderation.schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateListings } from '../../../api/listings/invalidate-listings';
import { queryKeys } from '../../../lib/query-keys';

export function useModerationQueue() {
  return useQuery({
    queryKey: queryKeys.moderation.queue,
    queryFn: ({ signal }) => apiRequest<ModerationQueueItem[]>('/api/moderation/queue', { signal }),
  });
}

export function useModerationLog() {
  return useQuery({
    queryKey: queryKeys.moderation.log,
    queryFn: ({ signal }) => apiRequest<ModerationLogEntry[]>('/api/moderation/log', { signal }),
  });
}

export type ModerationAction =
  | { kind: 'dismiss'; listingId: string }
  | { kind: 'remove'; listingId: string; reason: string }
  | { kind: 'restore'; listingId: string }
  | { kind: 'suspend'; userId: string; reason: string }
  | { kind: 'unsuspend'; userId: string };

function runAction(action: ModerationAction): Promise<ApiMessage> {
  switch (action.kind) {
    case 'dismiss':
      return apiRequest(`/api/moderation/listings/${action.listingId}/dismiss`, { method: 'POST' });
    case 'remove':
      return apiRequest(`/api/moderation/listings/${action.listingId}/remove`, {
        body: { reason: action.reason },
      });
    case 'restore':
      return apiRequest(`/api/moderation/listings/${action.listingId}/restore`, {
        method: 'POST',
      });
    case 'suspend':
      return apiRequest(`/api/moderation/users/${action.userId}/suspend`, {
        body: { reason: action.reason },
      });
    case 'unsuspend':
      return apiRequest(`/api/moderation/users/${action.userId}/unsuspend`, { method: 'POST' });
  }
}

export function useModerationAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runAction,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.moderation.all }),
        invalidateListings(queryClient),
      ]),
  });
}
