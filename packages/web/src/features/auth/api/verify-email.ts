import type { ApiMessage } from '@campus-books/common/api';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `alreadyVerified`: the link was used before and the address is verified: just sign in. */
export type VerifyEmailAnswer = ApiMessage & { alreadyVerified?: true };

/** POST /api/auth/verify-email: uses the link's single-use token. */
export function verifyEmail(token: string): Promise<VerifyEmailAnswer> {
  return apiRequest<VerifyEmailAnswer>('/api/auth/verify-email', {
    method: 'POST',
    body: { token },
  });
}

export function useVerifyEmail() {
  return useMutation({ mutationFn: verifyEmail });
}
