import type { ApiMessage } from '@campus-books/common/api';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /api/user/delete/{id}: removes the account, its listings, images and sessions. */
export function deleteUser(userId: string): Promise<ApiMessage> {
  return apiRequest<ApiMessage>(`/api/user/delete/${encodeURIComponent(userId)}`, {
    method: 'DELETE',
  });
}

export function useDeleteUser() {
  return useMutation({ mutationFn: deleteUser });
}
