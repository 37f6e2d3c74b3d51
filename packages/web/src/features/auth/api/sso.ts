import type { CurrentUser } from '@campus-books/common/account.schemas';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** A first sign-on waiting for its last step (GET /api/sso/pending). */
export interface PendingSignOn {
  name: string;
  email: string;
  firstName: string;
  lastName: string;
}

export interface FinishSignOnInput {
  groupmelink: string;
  firstName?: string;
  lastName?: string;
}

/** Where the sign-on starts: a full page load, the provider's page comes next. */
export function ssoStartHref(returnTo: string): string {
  return `/api/sso/start?returnTo=${encodeURIComponent(returnTo)}`;
}

export function usePendingSignOn() {
  return useQuery({
    queryKey: queryKeys.ssoPending,
    queryFn: ({ signal }) => apiRequest<PendingSignOn>('/api/sso/pending', { signal }),
    retry: false,
    staleTime: Infinity,
  });
}

/** POST /api/sso/finish: creates the account, signs in, and says where the student was going. */
export function useFinishSignOn() {
  return useMutation({
    mutationFn: (input: FinishSignOnInput) =>
      apiRequest<{ user: CurrentUser; returnTo: string }>('/api/sso/finish', {
        method: 'POST',
        body: input,
      }),
  });
}
