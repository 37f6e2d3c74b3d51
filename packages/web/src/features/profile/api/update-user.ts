import type { CurrentUser, ProfileUpdateInput } from '@campus-books/common/account.schemas';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** The updated user; `message` explains what happened (a new e-mail waits for its link, …). */
export type UpdatedUser = CurrentUser & { success?: true; message?: string };

/** POST /api/user/update/{id}: only the fields sent change. */
export function updateUser({
  userId,
  changes,
}: {
  userId: string;
  changes: ProfileUpdateInput;
}): Promise<UpdatedUser> {
  return apiRequest<UpdatedUser>(`/api/user/update/${encodeURIComponent(userId)}`, {
    method: 'POST',
    body: changes,
  });
}

export function useUpdateUser() {
  return useMutation({ mutationFn: updateUser });
}
