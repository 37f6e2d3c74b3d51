import type { ResetPasswordInput } from '@campus-books/common/account.schemas';
import type { ApiMessage } from '@campus-books/common/api';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/auth/reset-password/{token}: sets the new password and ends the user's other sessions. */
export function resetPassword({
  token,
  ...input
}: ResetPasswordInput & { token: string }): Promise<ApiMessage> {
  return apiRequest<ApiMessage>(`/api/auth/reset-password/${encodeURIComponent(token)}`, {
    method: 'POST',
    body: input,
  });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
