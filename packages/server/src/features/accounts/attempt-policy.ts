import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import type { Hit } from '../../plugins/limit-store';
import { tooManyAttempts } from '../../plugins/rate-limit';
import { findUserByEmail } from './users.repository';
import { CHALLENGE_MESSAGES, spendChallenge } from './challenge';
import { readKnownDevice, rememberDevice } from './known-device';

/**
 * The sign-in and sign-up limits for a campus behind a few NAT addresses (docs/security.md, "Sign-in
 * and sign-up limits (campus NAT)"):
 * - an address past its ceiling is asked to solve a proof-of-work challenge, never refused;
 * - an account refuses devices it does not know after RATE_LIMIT_SIGNIN_PER_ACCOUNT failures;
 * - a device that signed in to the account before counts only its own failures, so strangers'
 *   failures (on the address or on the account) never lock it out.
 */

/** 429 with `challengeRequired: true`: the forms show the challenge and send the request again. */
export class ChallengeRequired extends AppError {
  constructor(message: string = CHALLENGE_MESSAGES.required) {
    super(429, message, undefined, { challengeRequired: true });
  }
}

/** Counts an attempt of an address; past `max`, lets it through only with a solved challenge. */
export async function addressAttempt(
  app: FastifyInstance,
  request: FastifyRequest,
  name: string,
  max: number,
): Promise<Hit | null> {
  const hit = await app.limits.take(name, request.ip, max);
  if (hit.allowed) return hit;
  const payload = (request.body as { altcha?: string } | undefined)?.altcha;
  if (!payload) throw new ChallengeRequired();
  if (!(await spendChallenge(app, payload))) throw new ChallengeRequired(CHALLENGE_MESSAGES.failed);
  return null;
}

export interface SignInAttempt {
  /** The password was right (or the failure was not the caller's): gives the counted attempts back. */
  succeeded(reply: FastifyReply, userId: string | null): Promise<void>;
}

/** Counts a sign-in attempt before its password is checked: failures stay counted, successes do not. */
export async function beginSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  email: string,
): Promise<SignInAttempt> {
  const limits = app.config.rateLimits;
  const device = await readKnownDevice(app, request);
  const hits: Hit[] = [];
  const attempt: SignInAttempt = {
    async succeeded(successReply, userId) {
      await Promise.all(hits.map((hit) => hit.release()));
      if (userId) await rememberDevice(app, successReply, device, userId);
    },
  };

  if (device) {
    const user = await findUserByEmail(app.database.db, email);
    if (user && device.userIds.includes(user.id)) {
      const own = await app.limits.take(
        'signin:device',
        `${device.deviceId}:${user.id}`,
        limits.signInPerAccount,
      );
      if (!own.allowed) throw tooManyAttempts(reply, own);
      hits.push(own);
      return attempt;
    }
  }

  const address = await addressAttempt(app, request, 'signin:ip', limits.signInPerIp);
  if (address) hits.push(address);
  const account = await app.limits.take(
    'signin:account',
    email.trim().toLowerCase(),
    limits.signInPerAccount,
  );
  if (!account.allowed) {
    await address?.release();
    throw tooManyAttempts(reply, account);
  }
  hits.push(account);
  return attempt;
}
