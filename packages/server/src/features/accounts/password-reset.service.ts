import { webPaths } from '@campus-books/common/paths';
import { badRequest } from '../../lib/errors';
import type { AccountDeps } from './account-deps';
import { findUserById, setUserPassword } from './users.repository';
import { resetPasswordMail } from './account-mails';
import { AUTH_MESSAGES } from './auth.messages';
import {
  consumeEmailToken,
  isLiveEmailToken,
  issueEmailTokenForAddress,
  retireEmailTokens,
} from './email-tokens.repository';
import { hashPassword } from './password';

/**
 * Mails a reset link when the account exists. Nothing about the address is done before the caller
 * answers (decision 002): after the answer, a token is made and hashed and one statement
 * (`issueEmailTokenForAddress`) writes its row only for an account, and only then is there a mail.
 * So a known and an unknown address are answered after the same work, at the same moment.
 */
export function requestPasswordReset({ db, mailer, publicUrl }: AccountDeps, email: string): void {
  mailer.composeInBackground(async () => {
    const issued = await issueEmailTokenForAddress(db, email, 'reset_password');
    if (!issued) return null;
    const link = `${publicUrl}${webPaths.resetPassword.href(issued.token)}`;
    return resetPasswordMail(issued.email, link);
  });
}

/**
 * Uses a reset link once: new password, older reset links retired, every session ended. The link
 * proves access to the inbox, so it also verifies that address.
 */
export async function resetPassword(
  { db, sessions }: AccountDeps,
  token: string,
  password: string,
): Promise<void> {
  // A cheap look-up first: a guessed token costs no password hash (argon2 is costly by design).
  if (!(await isLiveEmailToken(db, token, 'reset_password'))) {
    throw badRequest(AUTH_MESSAGES.resetInvalid);
  }
  const passwordHash = await hashPassword(password); // before the token is spent
  const userId = await db.transaction(async (tx) => {
    const used = await consumeEmailToken(tx, token, 'reset_password');
    const user = used && (await findUserById(tx, used.userId));
    if (!used || !user) throw badRequest(AUTH_MESSAGES.resetInvalid);
    await setUserPassword(tx, user.id, passwordHash, used.email === user.email);
    await retireEmailTokens(tx, user.id, 'reset_password');
    return user.id;
  });
  await sessions.endAllForUser(userId);
}
