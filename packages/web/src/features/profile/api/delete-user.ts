import type { ApiMessage } from '@campus-books/common/api';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/**
 * DELETE /api/user/delete/{id}: removes the account, its listings, images and sessions. The
 * current password goes in the JSON body.
 */
export function deleteUser({
  userId,
  currentPassword,
}: {
  userId: string;
  currentPassword: string;
}): Promise<ApiMessage> {
  return apiCall('DELETE /api/user/delete/:id', {
    params: { id: userId },
    body: { currentPassword },
  });
}

export function useDeleteUser() {
  return useMutation({ mutationFn: deleteUser });
}
