import type { ApiMessage } from '@campus-books/common/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

export interface BlockedStudent {
  id: string;
  username: string;
  blockedAt: string;
}

/** GET /api/blocks: the students the caller blocked. */
export function useBlockedStudents(enabled = true) {
  return useQuery({
    queryKey: queryKeys.blocks,
    queryFn: ({ signal }) =>
      apiRequest<{ blocked: BlockedStudent[] }>('/api/blocks', { signal }).then(
        (answer) => answer.blocked,
      ),
    enabled,
  });
}

/** POST /api/blocks/{userId} (block) or DELETE (unblock); both are safe to send twice. */
export function useBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, block }: { userId: string; block: boolean }) =>
      apiRequest<ApiMessage>(`/api/blocks/${encodeURIComponent(userId)}`, {
        method: block ? 'POST' : 'DELETE',
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.blocks });
      // A block makes both sides' conversations read-only; an unblock opens them again.
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.all });
    },
  });
}
