import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Tokens of the links mailed to students: `<JSON body, base64url>.<HMAC-SHA256>`, keyed by the
 * server's secret and a label, so each kind of link has its own key and one never passes for another.
 */
const keyOf = (secret: string, label: string) =>
  createHmac('sha256', secret).update(label).digest();
const mac = (secret: string, label: string, body: string) =>
  createHmac('sha256', keyOf(secret, label)).update(body).digest('base64url');

export function signToken(secret: string, label: string, body: object): string {
  const encoded = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${encoded}.${mac(secret, label, encoded)}`;
}

/**
 * The body of a token signed with `label`; null when forged or malformed. Its fields are unchecked:
 * the caller checks their types and the expiry.
 */
export function readSignedToken(secret: string, label: string, token: string): unknown {
  const [encoded, signature, extra] = token.split('.');
  if (!encoded || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(secret, label, encoded));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    return JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as unknown;
  } catch {
    return null;
  }
}
