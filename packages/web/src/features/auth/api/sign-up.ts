import type { SignUpInput } from '@campus-books/common/account.schemas';
import type { ApiMessage } from '@campus-books/common/api';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** POST /api/auth/signup: creates the account and e-mails the verification link. */
export function signUp(input: SignUpInput & { altcha?: string }): Promise<ApiMessage> {
  return apiCall('POST /api/auth/signup', { body: input });
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
