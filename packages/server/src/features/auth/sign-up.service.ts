import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { deriveUsername, type SignUpInput } from '@campus-books/common/account.schemas';
import { users, type UserRow } from '../../db/schema';
import { badRequest, conflict } from '../../lib/errors';
import { findUserByEmail, findUserById, isUniqueViolation } from '../users/users.repository';
import { alreadyRegisteredMail, verifyEmailMail } from './account-mails';
import { AUTH_MESSAGES } from './auth.messages';
import { consumeEmailToken, issueEmailToken } from './email-tokens';
import { hashPassword } from './password';

/** Mails a fresh verification link for `email` (the account's address or its pending new one). */
export async function sendVerificationLink(app: FastifyInstance, user: UserRow, email: string) {
  const token = await issueEmailToken(app.database.db, {
    userId: user.id,
    purpose: 'verify_email',
    email,
  });
  const link = `${app.config.publicUrl}/verify-email/${token}`;
  app.mailer.sendInBackground(verifyEmailMail(email, link, email !== user.email));
}

/**
 * Creates the account and mails a verification link. For an address that already has an account
 * it creates nothing and mails that address a notice: the caller cannot tell the two apart
 * (docs/decisions/002-no-account-enumeration.md).
 */
export async function signUp(app: FastifyInstance, input: SignUpInput): Promise<void> {
  const { db } = app.database;
  // Hashed in both cases, so the answer takes as long for a known address as for a new one.
  const passwordHash = await hashPassword(input.password);
  const [created] = await db
    .insert(users)
    .values({
      firstName: input.firstName,
      lastName: input.lastName,
      username: input.username || deriveUsername(input.firstName, input.lastName),
      email: input.email.toLowerCase(),
      passwordHash,
      groupmelink: input.groupmelink,
    })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (created) {
    await sendVerificationLink(app, created, created.email);
    return;
  }
  const existing = await findUserByEmail(db, input.email);
  if (!existing) return;
  let verifyLink: string | undefined;
  if (!existing.emailVerifiedAt) {
    const token = await issueEmailToken(db, {
      userId: existing.id,
      purpose: 'verify_email',
      email: existing.email,
    });
    verifyLink = `${app.config.publicUrl}/verify-email/${token}`;
  }
  const signInLink = `${app.config.publicUrl}/sign-in`;
  app.mailer.sendInBackground(alreadyRegisteredMail(existing.email, signInLink, verifyLink));
}

/** A new link for an unverified account; silently nothing otherwise (no enumeration). */
export async function resendVerification(app: FastifyInstance, email: string): Promise<void> {
  const user = await findUserByEmail(app.database.db, email);
  if (user && !user.emailVerifiedAt) await sendVerificationLink(app, user, user.email);
}

/**
 * Uses a verification link: verifies the account's address, or makes a pending new address the
 * account's address. A conflict rolls back, so the link still works once the address is free.
 */
export async function verifyEmail(
  app: FastifyInstance,
  token: string,
): Promise<'verified' | 'changed'> {
  return app.database.db.transaction(async (tx) => {
    const used = await consumeEmailToken(tx, token, 'verify_email');
    const user = used && (await findUserById(tx, used.userId));
    if (!used || !user) throw badRequest(AUTH_MESSAGES.verifyInvalid);
    const verifiedAt = sql`coalesce(${users.emailVerifiedAt}, now())`;
    if (used.email === user.email) {
      await tx.update(users).set({ emailVerifiedAt: verifiedAt }).where(eq(users.id, user.id));
      return 'verified';
    }
    if (!used.email || used.email !== user.pendingEmail) {
      throw badRequest(AUTH_MESSAGES.verifyInvalid); // a link for an address since replaced
    }
    const owner = await findUserByEmail(tx, used.email);
    if (owner) throw conflict(AUTH_MESSAGES.emailTaken);
    try {
      await tx
        .update(users)
        .set({
          email: used.email,
          pendingEmail: null,
          emailVerifiedAt: verifiedAt,
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, user.id));
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(AUTH_MESSAGES.emailTaken);
      throw error;
    }
    return 'changed';
  });
}
