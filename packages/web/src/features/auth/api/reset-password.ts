import type { ResetPasswordInput } from '@campus-books/common/account.schemas';
import type { ApiMessage } from '@campus-books/common/api';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** POST /api/auth/reset-password/{token}: sets the new password and ends the user's other sessions. */
export function resetPassword({
  token,
  ...input
}: ResetPasswordInput & { token: string }): Promise<ApiMessage> {
  return apiCall('POST /api/auth/reset-password/:token', { params: { token }, body: input });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
