import type { CurrentUser, SignInInput } from '@campus-books/common/account.schemas';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** POST /api/auth/signin: answers the user; 403 while the e-mail is not verified. */
export function signIn(input: SignInInput & { altcha?: string }): Promise<CurrentUser> {
  return apiCall('POST /api/auth/signin', { body: input });
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
