import type { OperatorStatistics } from '@campus-books/common/statistics.schemas';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/statistics: the campus's weekly counts (moderators only). */
export function useOperatorStatistics(weeks: number, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.moderation.statistics(weeks),
    queryFn: ({ signal }) =>
      apiRequest<OperatorStatistics>(`/api/statistics?weeks=${weeks}`, { signal }),
    enabled,
  });
}
