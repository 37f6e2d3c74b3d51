import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { forbidden, unauthorized } from '../../lib/errors';
import { ACCOUNT_SUSPENDED } from '../moderation/moderation.messages';
import { findUserByEmail } from './users.repository';
import { AUTH_MESSAGES } from './auth.messages';
import { hashPassword, verifyPassword } from './password';

// An unknown e-mail is checked against this hash, so it takes as long as a known one.
let dummyHash: Promise<string> | undefined;
function getDummyHash(): Promise<string> {
  // A failed hash (a thread that stopped) is not kept: the next sign-in makes it again.
  dummyHash ??= hashPassword(randomBytes(16).toString('hex')).catch((error: unknown) => {
    dummyHash = undefined;
    throw error;
  });
  return dummyHash;
}

/** The account for these credentials; 401 for a wrong pair, 403 for an unverified e-mail. */
export async function checkCredentials(db: Db, email: string, password: string): Promise<UserRow> {
  const user = await findUserByEmail(db, email);
  const matches = await verifyPassword(user?.passwordHash ?? (await getDummyHash()), password);
  if (!user || !matches) throw unauthorized(AUTH_MESSAGES.wrongCredentials);
  // Told only to someone who knows the password, so it reveals nothing to a stranger.
  if (!user.emailVerifiedAt) throw forbidden(AUTH_MESSAGES.notVerified);
  if (user.suspendedAt) throw forbidden(ACCOUNT_SUSPENDED);
  return user;
}
