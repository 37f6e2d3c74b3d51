import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { deriveUsername, isSchoolEmail } from '@campus-books/common/account.schemas';
import type { SsoConfig } from '../../config/sso-config';
import type { Db } from '../../db/database';
import type { UserRow } from '../../db/schema';
import type { Sessions } from '../../plugins/sessions';
import { badRequest, forbidden } from '../../lib/errors';
import { ACCOUNT_SUSPENDED } from '../moderation/moderation.messages';
import { hashPassword } from '../accounts/password';
import {
  deleteUnverifiedUserByEmail,
  findUserByEmail,
  insertUserUnlessEmailTaken,
} from '../accounts/users.repository';
import { claimOnce, findUserByIdentity, linkIdentity } from './sso.repository';
import { PENDING_TTL_MS, type PendingIdentity, type SsoCookies } from './sso.state';

/**
 * What signing on uses, built once where the routes are: the database, the sessions, the sign-on's
 * cookies, and the settings (the protocol's, the campus's domain, the public address).
 */
export interface SignOnDeps {
  db: Db;
  sessions: Pick<Sessions, 'start'>;
  cookies: SsoCookies;
  sso: SsoConfig;
  schoolEmailDomain: string | null;
  publicUrl: string;
}
/** What a protocol's start and callback use. */
export type SignOnProtocolDeps = Pick<SignOnDeps, 'db' | 'cookies' | 'sso' | 'publicUrl'>;

/** Who the provider vouched for, in the protocol's own terms mapped to ours. */
export interface Identity {
  /** `oidc:<issuer>`, `saml:<entity id>`, `cas:<base URL>`. */
  provider: string;
  subject: string;
  email: string | null;
  /** OIDC's `email_verified`; null where the protocol does not say (SAML, CAS: the IdP is the authority). */
  emailVerified: boolean | null;
  givenName: string;
  familyName: string;
  affiliations: string[];
}

/** Why a sign-on was refused; each has its own explanation on the web page /sso/problem. */
export type Refusal =
  | 'failed'
  | 'unavailable'
  | 'no-email'
  | 'outside-domain'
  | 'unverified-email'
  | 'not-admitted'
  | 'suspended';

export type SignOnOutcome =
  { kind: 'signed-in'; user: UserRow } | { kind: 'finish' } | { kind: 'refused'; reason: Refusal };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether the campus admits this identity; the refusal otherwise. */
export function admission(
  { schoolEmailDomain, sso }: { schoolEmailDomain: string | null; sso: SsoConfig },
  identity: Identity,
): Refusal | null {
  const email = identity.email?.toLowerCase() ?? '';
  if (!EMAIL.test(email) || email.length > 254) return 'no-email';
  if (!isSchoolEmail(email, schoolEmailDomain)) return 'outside-domain';
  // An address the provider says it has not verified is refused; one it says nothing about is
  // trusted only within the campus's own domain (Entra ID sends no email_verified).
  if (identity.emailVerified === false) return 'unverified-email';
  if (sso.protocol === 'oidc' && identity.emailVerified !== true && !schoolEmailDomain) {
    return 'unverified-email';
  }
  if (sso.admitAffiliations.length > 0) {
    const held = new Set(identity.affiliations.map((a) => a.trim().toLowerCase()));
    if (!sso.admitAffiliations.some((a) => held.has(a))) return 'not-admitted';
  }
  return null;
}

/**
 * Signs the student in with the identity: its linked account; else the verified account of its
 * address, linked now (the provider is the authority for campus addresses); else a first sign-in
 * that asks what the provider did not give (the pending cookie). An unverified account of the
 * address is never merged: the finishing step replaces it (decision 008's hijack class).
 */
export async function signOn(
  deps: SignOnDeps,
  reply: FastifyReply,
  identity: Identity,
  returnTo: string,
): Promise<SignOnOutcome> {
  const refusal = admission(deps, identity);
  if (refusal) return { kind: 'refused', reason: refusal };
  const { db, cookies, sessions } = deps;
  const email = identity.email!.toLowerCase();
  let user = await findUserByIdentity(db, identity.provider, identity.subject);
  if (!user) {
    const owner = await findUserByEmail(db, email);
    if (owner?.emailVerifiedAt) {
      await linkIdentity(db, identity.provider, identity.subject, owner.id);
      user = await findUserByIdentity(db, identity.provider, identity.subject);
    }
  }
  if (!user) {
    await cookies.setPending(reply, {
      provider: identity.provider,
      subject: identity.subject,
      email,
      givenName: identity.givenName.trim().slice(0, 50),
      familyName: identity.familyName.trim().slice(0, 50),
      returnTo,
    });
    return { kind: 'finish' };
  }
  if (user.suspendedAt) return { kind: 'refused', reason: 'suspended' };
  cookies.clearPending(reply);
  await sessions.start(reply, user.id);
  return { kind: 'signed-in', user };
}

export interface FinishInput {
  groupmelink: string;
  firstName?: string;
  lastName?: string;
}

/**
 * Creates the account of a first sign-in (verified: the provider vouched for the address) and
 * links the identity, once: the pending step's id is claimed, so parallel copies create one.
 */
export async function finishSignOn(
  { db, cookies, sessions }: SignOnDeps,
  reply: FastifyReply,
  pending: PendingIdentity,
  input: FinishInput,
): Promise<UserRow> {
  const firstName = pending.givenName || input.firstName?.trim() || '';
  const lastName = pending.familyName || input.lastName?.trim() || '';
  if (!firstName || !lastName) throw badRequest('Please give your first and last name');
  const unusablePassword = await hashPassword(randomBytes(32).toString('base64url'));
  const user = await db.transaction(async (tx) => {
    if (!(await claimOnce(tx, `finish:${pending.id}`, new Date(Date.now() + PENDING_TTL_MS)))) {
      throw badRequest('This sign-in is already finished: sign in again');
    }
    const linked = await findUserByIdentity(tx, pending.provider, pending.subject);
    if (linked) return linked;
    // An unverified account of this address is someone's unproven claim on it: replaced.
    await deleteUnverifiedUserByEmail(tx, pending.email);
    const created = await insertUserUnlessEmailTaken(
      tx,
      {
        firstName,
        lastName,
        username: deriveUsername(firstName, lastName),
        email: pending.email,
        passwordHash: unusablePassword,
        groupmelink: input.groupmelink,
      },
      { verified: true },
    );
    // A verified account of the address appeared meanwhile (its owner verified it): link that one.
    const account = created ?? (await findUserByEmail(tx, pending.email));
    if (!account?.emailVerifiedAt)
      throw badRequest('This sign-in could not be finished: sign in again');
    await linkIdentity(tx, pending.provider, pending.subject, account.id);
    return account;
  });
  if (user.suspendedAt) throw forbidden(ACCOUNT_SUSPENDED);
  cookies.clearPending(reply);
  await sessions.start(reply, user.id);
  return user;
}
