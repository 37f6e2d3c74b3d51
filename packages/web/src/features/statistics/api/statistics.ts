import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/statistics: the campus's weekly counts (moderators only). */
export function useOperatorStatistics(weeks: number, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.moderation.statistics(weeks),
    queryFn: ({ signal }) => apiCall('GET /api/statistics', { query: { weeks }, signal }),
    enabled,
  });
}
