import type { ApiMessage } from '@campus-books/common/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { invalidateListings } from '../../../api/listings/invalidate-listings';
import { queryKeys } from '../../../lib/query-keys';

export function useModerationQueue() {
  return useQuery({
    queryKey: queryKeys.moderation.queue,
    queryFn: ({ signal }) => apiCall('GET /api/moderation/queue', { signal }),
  });
}

export function useModerationLog() {
  return useQuery({
    queryKey: queryKeys.moderation.log,
    queryFn: ({ signal }) => apiCall('GET /api/moderation/log', { signal }),
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
      return apiCall('POST /api/moderation/listings/:listingId/dismiss', { params: action });
    case 'remove':
      return apiCall('POST /api/moderation/listings/:listingId/remove', {
        params: action,
        body: { reason: action.reason },
      });
    case 'restore':
      return apiCall('POST /api/moderation/listings/:listingId/restore', { params: action });
    case 'suspend':
      return apiCall('POST /api/moderation/users/:userId/suspend', {
        params: action,
        body: { reason: action.reason },
      });
    case 'unsuspend':
      return apiCall('POST /api/moderation/users/:userId/unsuspend', { params: action });
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
