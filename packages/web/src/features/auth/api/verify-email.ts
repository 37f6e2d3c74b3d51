import { useMutation } from '@tanstack/react-query';
import { apiCall, type ApiAnswer } from '../../../lib/api-client';

/** `alreadyVerified`: the link was used before and the address is verified: just sign in. */
export type VerifyEmailAnswer = ApiAnswer<'POST /api/auth/verify-email'>;

/** POST /api/auth/verify-email: uses the link's single-use token. */
export function verifyEmail(token: string): Promise<VerifyEmailAnswer> {
  return apiCall('POST /api/auth/verify-email', { body: { token } });
}

export function useVerifyEmail() {
  return useMutation({ mutationFn: verifyEmail });
}
