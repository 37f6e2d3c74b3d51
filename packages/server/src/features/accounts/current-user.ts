import type { CurrentUser, Seller } from '@campus-books/common/account.schemas';
import type { UserRow } from '../../db/schema';

/** The signed-in user as the API answers it (never the password hash). */
export function toCurrentUser(user: UserRow, isModerator = false): CurrentUser {
  return {
    _id: user.id,
    username: user.username,
    email: user.email,
    groupmelink: user.groupmelink,
    avatar: user.avatar,
    emailVerified: user.emailVerifiedAt !== null,
    pendingEmail: user.pendingEmail,
    createdAt: user.createdAt.toISOString(),
    ...(isModerator ? { isModerator } : {}),
  };
}

/** What a buyer may read about a seller: no e-mail, nothing private. */
export function toSeller(user: UserRow): Seller {
  return { _id: user.id, username: user.username, groupmelink: user.groupmelink };
}
