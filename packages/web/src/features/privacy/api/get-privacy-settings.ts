import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/privacy: the retention periods the /privacy page states (the server's own). */
export const privacySettingsQueryOptions = queryOptions({
  queryKey: queryKeys.privacy,
  queryFn: ({ signal }) => apiCall('GET /api/privacy', { signal }),
  staleTime: Infinity,
});
