import type { ProfileUpdateInput } from '@campus-books/common/account.schemas';
import { useMutation } from '@tanstack/react-query';
import { apiCall, type ApiAnswer } from '../../../lib/api-client';

/** The updated user; `message` explains what happened (a new e-mail waits for its link, …). */
export type UpdatedUser = ApiAnswer<'POST /api/user/update/:id'>;

/** POST /api/user/update/{id}: only the fields sent change. */
export function updateUser({
  userId,
  changes,
}: {
  userId: string;
  changes: ProfileUpdateInput;
}): Promise<UpdatedUser> {
  return apiCall('POST /api/user/update/:id', { params: { id: userId }, body: changes });
}

export function useUpdateUser() {
  return useMutation({ mutationFn: updateUser });
}
