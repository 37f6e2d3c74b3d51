import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall, type ApiAnswer } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

/** A student the caller blocked. */
export type BlockedStudent = ApiAnswer<'GET /api/blocks'>['blocked'][number];

/** GET /api/blocks: the students the caller blocked. */
export function useBlockedStudents(enabled = true) {
  return useQuery({
    queryKey: queryKeys.blocks,
    queryFn: ({ signal }) =>
      apiCall('GET /api/blocks', { signal }).then((answer) => answer.blocked),
    enabled,
  });
}

/** POST /api/blocks/{userId} (block) or DELETE (unblock); both are safe to send twice. */
export function useBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, block }: { userId: string; block: boolean }) =>
      block
        ? apiCall('POST /api/blocks/:userId', { params: { userId } })
        : apiCall('DELETE /api/blocks/:userId', { params: { userId } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.blocks });
      // A block makes both sides' conversations read-only; an unblock opens them again.
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.all });
    },
  });
}
