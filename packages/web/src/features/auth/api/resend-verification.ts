import type { EmailOnlyInput } from '@campus-books/common/account.schemas';
import type { ApiMessage } from '@campus-books/common/api';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** POST /api/auth/resend-verification: answers the same whether or not the account exists. */
export function resendVerification(input: EmailOnlyInput): Promise<ApiMessage> {
  return apiCall('POST /api/auth/resend-verification', { body: input });
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
