import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long an unsubscribe link in a mail keeps working. */
export const UNSUBSCRIBE_LINK_DAYS = 90;

interface TokenBody {
  /** The alerts it stops. */
  a: string[];
  /** Their owner. */
  u: string;
  /** Expiry, in seconds since the epoch. */
  x: number;
}

const keyOf = (secret: string) => createHmac('sha256', secret).update('alert-unsubscribe').digest();
const mac = (secret: string, body: string) =>
  createHmac('sha256', keyOf(secret)).update(body).digest('base64url');

/** A link's token: the alerts and their owner, signed with the server's secret, with an expiry. */
export function signUnsubscribeToken(
  secret: string,
  userId: string,
  alertIds: string[],
  now: Date,
): string {
  const body: TokenBody = {
    a: [...alertIds].sort(),
    u: userId,
    x: Math.floor(now.getTime() / 1000) + UNSUBSCRIBE_LINK_DAYS * 86_400,
  };
  const encoded = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${encoded}.${mac(secret, encoded)}`;
}

/** The alerts and owner a token names; null when it is forged, malformed or expired. */
export function readUnsubscribeToken(
  secret: string,
  token: string,
  now: Date,
): { userId: string; alertIds: string[] } | null {
  const [encoded, signature, extra] = token.split('.');
  if (!encoded || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(secret, encoded));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let body: TokenBody;
  try {
    body = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as TokenBody;
  } catch {
    return null;
  }
  if (typeof body.x !== 'number' || body.x * 1000 <= now.getTime()) return null;
  if (typeof body.u !== 'string' || !Array.isArray(body.a)) return null;
  if (!body.a.every((id) => typeof id === 'string')) return null;
  return { userId: body.u, alertIds: body.a };
}
