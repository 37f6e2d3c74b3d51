import { useMutation, useQuery } from '@tanstack/react-query';
import { apiCall, type ApiCallOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Where the sign-on starts: a full page load, the provider's page comes next. */
export function ssoStartHref(returnTo: string): string {
  return `/api/sso/start?returnTo=${encodeURIComponent(returnTo)}`;
}

/** GET /api/sso/pending: the first sign-on waiting for its last step (401 without one). */
export function usePendingSignOn() {
  return useQuery({
    queryKey: queryKeys.ssoPending,
    queryFn: ({ signal }) => apiCall('GET /api/sso/pending', { signal }),
    retry: false,
    staleTime: Infinity,
  });
}

/** POST /api/sso/finish: creates the account, signs in, and says where the student was going. */
export function useFinishSignOn() {
  return useMutation({
    mutationFn: (body: ApiCallOptions<'POST /api/sso/finish'>['body']) =>
      apiCall('POST /api/sso/finish', { body }),
  });
}
