import type { EmailOnlyInput } from '@campus-books/common/account.schemas';
import type { ApiMessage } from '@campus-books/common/api';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** POST /api/auth/forgot-password: e-mails a single-use reset link (same answer for unknown accounts). */
export function requestPasswordReset(input: EmailOnlyInput): Promise<ApiMessage> {
  return apiCall('POST /api/auth/forgot-password', { body: input });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: requestPasswordReset });
}
