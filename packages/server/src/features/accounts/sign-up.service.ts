import { webPaths } from '@campus-books/common/paths';
import { deriveUsername, type SignUpInput } from '@campus-books/common/account.schemas';
import type { UserRow } from '../../db/schema';
import type { AccountDeps } from './account-deps';
import { badRequest, conflict } from '../../lib/errors';
import {
  confirmUserEmail,
  findUserByEmail,
  findUserById,
  insertUserUnlessEmailTaken,
  isUniqueViolation,
  markUserEmailVerified,
} from './users.repository';
import { alreadyRegisteredMail, finishSignUpMail, verifyEmailMail } from './account-mails';
import { AUTH_MESSAGES } from './auth.messages';
import {
  consumeEmailToken,
  findEmailToken,
  issueEmailToken,
  latestLiveSignupClaim,
  retireEmailTokens,
} from './email-tokens.repository';
import { hashPassword } from './password';

/** Mails a fresh verification link for `email` (the account's address or its pending new one). */
export async function sendVerificationLink(
  { db, mailer, publicUrl }: Pick<AccountDeps, 'db' | 'mailer' | 'publicUrl'>,
  user: UserRow,
  email: string,
) {
  const token = await issueEmailToken(db, {
    userId: user.id,
    purpose: 'verify_email',
    email,
  });
  const link = `${publicUrl}${webPaths.verifyEmail.href(token)}`;
  mailer.sendInBackground(verifyEmailMail(email, link, email !== user.email));
}

/**
 * Creates the account and mails a verification link. For an address that already has an account
 * it creates nothing and mails that address a notice: the caller cannot tell the two apart
 * (docs/decisions/002-no-account-enumeration.md).
 */
export async function signUp(deps: AccountDeps, input: SignUpInput): Promise<void> {
  const { db, mailer, publicUrl } = deps;
  // Hashed in both cases, so the answer takes as long for a known address as for a new one.
  const passwordHash = await hashPassword(input.password);
  const created = await insertUserUnlessEmailTaken(db, {
    firstName: input.firstName,
    lastName: input.lastName,
    username: input.username || deriveUsername(input.firstName, input.lastName),
    email: input.email,
    passwordHash,
    groupmelink: input.groupmelink,
  });
  if (created) {
    await sendVerificationLink(deps, created, created.email);
    return;
  }
  const existing = await findUserByEmail(db, input.email);
  if (!existing) return;
  if (existing.emailVerifiedAt) {
    const signInLink = `${publicUrl}${webPaths.signIn.href()}`;
    const resetLink = `${publicUrl}${webPaths.forgotPassword.href()}`;
    mailer.sendInBackground(alreadyRegisteredMail(existing.email, signInLink, resetLink));
    return;
  }
  // An unverified account may be someone else's claim on this address (a pre-account hijack):
  // the link mailed now carries THIS sign-up's password and names, and plain links mailed
  // before stop working (docs/decisions/008-pre-account-hijack.md).
  const token = await db.transaction(async (tx) => {
    await retireEmailTokens(tx, existing.id, 'verify_email', { withoutClaimOnly: true });
    return issueEmailToken(tx, {
      userId: existing.id,
      purpose: 'verify_email',
      email: existing.email,
      signupClaim: {
        passwordHash,
        firstName: input.firstName,
        lastName: input.lastName,
        username: input.username || deriveUsername(input.firstName, input.lastName),
        groupmelink: input.groupmelink,
      },
    });
  });
  mailer.sendInBackground(
    finishSignUpMail(existing.email, `${publicUrl}${webPaths.verifyEmail.href(token)}`),
  );
}

/** A new link for an unverified account; silently nothing otherwise (no enumeration). */
export async function resendVerification(deps: AccountDeps, email: string): Promise<void> {
  const { db, mailer, publicUrl } = deps;
  const user = await findUserByEmail(db, email);
  if (!user || user.emailVerifiedAt) return;
  // After a sign-up met this unverified account, a new link must carry that sign-up's password
  // too: a plain one would verify the account with the password of whoever started it.
  const signupClaim = await latestLiveSignupClaim(db, user.id);
  if (!signupClaim) {
    await sendVerificationLink(deps, user, user.email);
    return;
  }
  const token = await issueEmailToken(db, {
    userId: user.id,
    purpose: 'verify_email',
    email: user.email,
    signupClaim,
  });
  mailer.sendInBackground(
    finishSignUpMail(user.email, `${publicUrl}${webPaths.verifyEmail.href(token)}`),
  );
}

export type VerifyOutcome = 'verified' | 'changed' | 'alreadyVerified';

/**
 * Uses a verification link: verifies the account's address (setting the password and names of a
 * sign-up that met the unverified account, and ending its sessions), or makes a pending new
 * address the account's address. A conflict rolls back, so the link still works once the address
 * is free. A used or surplus link of an address that is verified answers 'alreadyVerified'.
 */
export async function verifyEmail(
  { db, sessions }: AccountDeps,
  token: string,
): Promise<VerifyOutcome> {
  const outcome = await db.transaction(async (tx) => {
    const used = await consumeEmailToken(tx, token, 'verify_email');
    if (!used) {
      const spent = await findEmailToken(tx, token, 'verify_email');
      const owner = spent && (await findUserById(tx, spent.userId));
      if (owner?.emailVerifiedAt && spent?.email === owner.email) {
        return { result: 'alreadyVerified' as const };
      }
      throw badRequest(AUTH_MESSAGES.verifyInvalid);
    }
    const user = await findUserById(tx, used.userId);
    if (!user) throw badRequest(AUTH_MESSAGES.verifyInvalid);
    if (used.email === user.email) {
      if (user.emailVerifiedAt) return { result: 'alreadyVerified' as const };
      const claim = used.signupClaim;
      const verified = await markUserEmailVerified(tx, user.id, claim);
      if (!verified) return { result: 'alreadyVerified' as const }; // a parallel link won
      // Every other link of the unfinished sign-ups is moot now.
      await retireEmailTokens(tx, user.id, 'verify_email');
      if (claim) await retireEmailTokens(tx, user.id, 'reset_password');
      return { result: 'verified' as const, endSessionsOf: claim ? user.id : undefined };
    }
    if (!used.email || used.email !== user.pendingEmail) {
      throw badRequest(AUTH_MESSAGES.verifyInvalid); // a link for an address since replaced
    }
    const owner = await findUserByEmail(tx, used.email);
    if (owner) throw conflict(AUTH_MESSAGES.emailTaken);
    try {
      await confirmUserEmail(tx, user.id, used.email);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(AUTH_MESSAGES.emailTaken);
      throw error;
    }
    return { result: 'changed' as const };
  });
  // The password someone else chose is gone; so are the sessions it could have opened.
  if ('endSessionsOf' in outcome && outcome.endSessionsOf) {
    await sessions.endAllForUser(outcome.endSessionsOf);
  }
  return outcome.result;
}
