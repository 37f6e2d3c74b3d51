import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import { importHmacKey, type HmacKey } from '../../lib/hmac-key';

/**
 * The "known device" cookie: set at every successful sign-in, it names a random device id and the
 * accounts that signed in on it. Signed with a key derived from SESSION_SECRET, so nobody can make one
 * for an account whose password they do not know; a device that has one is judged by its own failure
 * count, never by the per-address or per-account counts strangers can run up.
 */
export const DEVICE_COOKIE = 'cb_device';
const DEVICE_TTL_SECONDS = 365 * 24 * 60 * 60;
const ALGORITHM = 'HS256';
/** A shared computer keeps the most recent accounts only. */
const MAX_ACCOUNTS = 10;

export interface KnownDevice {
  deviceId: string;
  userIds: string[];
}

const keys = new WeakMap<FastifyInstance, Promise<HmacKey>>();

/** The app's device key, derived from SESSION_SECRET and imported once (lib/hmac-key.ts). */
function keyOf(app: FastifyInstance): Promise<HmacKey> {
  let key = keys.get(app);
  if (!key) {
    key = importHmacKey(
      createHmac('sha256', app.config.sessionSecret).update('known-device').digest(),
    );
    keys.set(app, key);
  }
  return key;
}

export async function readKnownDevice(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<KnownDevice | null> {
  const token = request.cookies[DEVICE_COOKIE];
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, await keyOf(app), { algorithms: [ALGORITHM] });
    const { did, uids } = payload as { did?: unknown; uids?: unknown };
    if (typeof did !== 'string' || !Array.isArray(uids)) return null;
    return { deviceId: did, userIds: uids.filter((u): u is string => typeof u === 'string') };
  } catch {
    return null;
  }
}

/** Adds the account to the request's device (a new device id when it has none). */
export async function rememberDevice(
  app: FastifyInstance,
  reply: FastifyReply,
  device: KnownDevice | null,
  userId: string,
): Promise<void> {
  const deviceId = device?.deviceId ?? randomUUID();
  const userIds = [userId, ...(device?.userIds ?? []).filter((id) => id !== userId)].slice(
    0,
    MAX_ACCOUNTS,
  );
  const expires = new Date(Date.now() + DEVICE_TTL_SECONDS * 1000);
  const token = await new SignJWT({ did: deviceId, uids: userIds })
    .setProtectedHeader({ alg: ALGORITHM })
    .setIssuedAt()
    .setExpirationTime(Math.floor(expires.getTime() / 1000))
    .sign(await keyOf(app));
  reply.setCookie(DEVICE_COOKIE, token, {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.secureCookies,
    expires,
  });
}
