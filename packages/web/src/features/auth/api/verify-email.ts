import type { ApiMessage } from '@campus-books/common/api';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/auth/verify-email: uses the link's single-use token. */
export function verifyEmail(token: string): Promise<ApiMessage> {
  return apiRequest<ApiMessage>('/api/auth/verify-email', { method: 'POST', body: { token } });
}

export function useVerifyEmail() {
  return useMutation({ mutationFn: verifyEmail });
}
