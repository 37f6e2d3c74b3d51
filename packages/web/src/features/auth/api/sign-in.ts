import type { CurrentUser, SignInInput } from '@campus-books/common/account.schemas';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/auth/signin: answers the user; 403 while the e-mail is not verified. */
export function signIn(input: SignInInput & { altcha?: string }): Promise<CurrentUser> {
  return apiRequest<CurrentUser>('/api/auth/signin', { method: 'POST', body: input });
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
