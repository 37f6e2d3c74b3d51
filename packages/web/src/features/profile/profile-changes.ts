import type { CurrentUser, ProfileUpdateInput } from '@campus-books/common/account.schemas';

export interface ProfileFormValues {
  username: string;
  email: string;
  /** Empty means unchanged. */
  password: string;
  groupmelink: string;
  avatar: string;
  /** Asked for a new e-mail or password only (the API refuses those without it). */
  currentPassword: string;
}

export function profileFormValues(user: CurrentUser): ProfileFormValues {
  return {
    username: user.username,
    email: user.email,
    password: '',
    groupmelink: user.groupmelink,
    avatar: user.avatar ?? '',
    currentPassword: '',
  };
}

/** Only what the user changed is sent (the API updates exactly the fields it receives). */
export function changedProfileFields(
  values: ProfileFormValues,
  user: CurrentUser,
): Partial<Record<keyof ProfileUpdateInput, string>> {
  const changes: Partial<Record<keyof ProfileUpdateInput, string>> = {};
  if (values.username.trim() !== user.username) changes.username = values.username;
  if (values.email.trim().toLowerCase() !== user.email.toLowerCase()) changes.email = values.email;
  if (values.password !== '') changes.password = values.password;
  if (values.groupmelink.trim() !== user.groupmelink) changes.groupmelink = values.groupmelink;
  if (values.avatar !== (user.avatar ?? '')) changes.avatar = values.avatar;
  if ((changes.email !== undefined || changes.password !== undefined) && values.currentPassword) {
    changes.currentPassword = values.currentPassword;
  }
  return changes;
}
