import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * The proof-of-work challenge (ALTCHA, self-hosted) that an address past its sign-in or sign-up
 * ceiling must solve instead of being refused: a few seconds of a browser's time per attempt, which a
 * student pays once and a script sending thousands pays thousands of times.
 */

export const CHALLENGE_ALGORITHM = 'PBKDF2/SHA-256';
/** A challenge must be solved and sent within this time. */
export const CHALLENGE_TTL_MS = 10 * 60_000;

/**
 * GET /api/auth/challenge: an ALTCHA v2 challenge as the widget reads it (altcha-lib's Challenge).
 * The signature covers the parameters: a field a newer altcha-lib adds must be added here too, or
 * the sign-in tests with a solved challenge fail.
 */
export const challengeAnswerSchema = z.object({
  parameters: z.object({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    memoryCost: z.number().optional(),
    parallelism: z.number().optional(),
    expiresAt: z.number().optional(),
    data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: z.string().optional(),
  codeChallenge: z
    .object({ image: z.string(), audio: z.string().optional(), length: z.number().optional() })
    .optional(),
});

export const CHALLENGE_MESSAGES = {
  required:
    'Too many attempts from your network. Please confirm you are not a robot and try again.',
  failed: 'The verification did not pass. Please try again.',
} as const;

function secrets(app: FastifyInstance) {
  const derive = (purpose: string) =>
    createHmac('sha256', app.config.sessionSecret).update(`altcha:${purpose}`).digest('base64url');
  return { hmacSignatureSecret: derive('challenge'), hmacKeySignatureSecret: derive('key') };
}

/** A new signed challenge; the difficulty is ALTCHA_COST × a counter up to ALTCHA_MAX_COUNTER. */
export async function issueChallenge(app: FastifyInstance, now = Date.now()): Promise<Challenge> {
  const { cost, maxCounter } = app.config.challenge;
  return createChallenge({
    algorithm: CHALLENGE_ALGORITHM,
    cost,
    counter: randomInt(maxCounter, Math.ceil(maxCounter / 2)),
    deriveKey,
    expiresAt: Math.floor((now + CHALLENGE_TTL_MS) / 1000),
    ...secrets(app),
  });
}

function decode(payload: string): { challenge: Challenge; solution: unknown } | null {
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { challenge, solution } = parsed as { challenge?: Challenge; solution?: unknown };
    if (!challenge?.parameters || typeof challenge.signature !== 'string') return null;
    if (challenge.parameters.algorithm !== CHALLENGE_ALGORITHM) return null;
    if (typeof solution !== 'object' || solution === null) return null;
    return { challenge, solution };
  } catch {
    return null;
  }
}

/**
 * True once per solved challenge: the signature is checked, then the challenge is spent in the shared
 * rate-limit store (one use per signature, atomically), so a replayed solution, even sent many
 * times at once or to another app server, is refused.
 */
export async function spendChallenge(
  app: FastifyInstance,
  payload: string | undefined,
): Promise<boolean> {
  if (!payload) return false;
  const decoded = decode(payload);
  if (!decoded) return false;
  let verified = false;
  try {
    const result = await verifySolution({
      challenge: decoded.challenge,
      solution: decoded.solution as Parameters<typeof verifySolution>[0]['solution'],
      deriveKey,
      ...secrets(app),
    });
    verified = result.verified;
  } catch {
    return false;
  }
  if (!verified) return false;
  const spent = await app.limits.take(
    'altcha',
    decoded.challenge.signature!,
    1,
    CHALLENGE_TTL_MS * 2,
  );
  return spent.allowed;
}
