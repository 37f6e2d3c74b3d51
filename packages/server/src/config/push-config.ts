import { createECDH } from 'node:crypto';
import { z } from 'zod';

/**
 * Web Push (features/push, docs/operations.md "Push notifications"): the VAPID key pair the server
 * signs its requests to the push services with, and who to contact about them. Keys come from the
 * settings (every app server the same) or, when neither is set, from DATA_DIR/vapid-keys.json,
 * generated on the first start.
 */
export interface PushConfig {
  /** Both set, or null: the pair in DATA_DIR (made at the first start). */
  vapid: { publicKey: string; privateKey: string } | null;
  /** A mailto: or https: URL the push services may contact (VAPID `sub`). */
  subject: string;
  /**
   * Test only (PUSH_TEST_ENDPOINTS=on): endpoints may be http:// and on private or loopback
   * addresses, so a local stand-in of a push service can receive. Refused in production.
   */
  testEndpoints: boolean;
}

/** A blank value counts as unset, like a missing one. */
const blankAsUnset = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim() || undefined : v), schema);

/** The push settings (keys, contact); the pair and the contact are checked in readPushConfig. */
export const pushSettings = z.object({
  VAPID_PUBLIC_KEY: blankAsUnset(z.string().optional()).meta({
    unset: 'a pair generated once into `DATA_DIR/vapid-keys.json` (0600)',
    accepts: 'base64url',
    description:
      'The public half of the Web Push key pair (P-256, base64url): set both halves or neither, the same on every app server.',
  }),
  VAPID_PRIVATE_KEY: blankAsUnset(z.string().optional()).meta({
    unset: 'that generated pair',
    accepts: 'base64url',
    description: 'Its private half (`npx web-push generate-vapid-keys` prints a pair).',
  }),
  VAPID_SUBJECT: blankAsUnset(z.string().optional()).meta({
    unset: '`mailto:` the address of `MAIL_FROM`',
    accepts: '`mailto:…` or `https://…` URL',
    description: 'A `mailto:` or `https://` URL where the push services can reach the operator.',
  }),
});

/** Test only: see PushConfig.testEndpoints. */
export const pushTestSettings = z.object({
  PUSH_TEST_ENDPOINTS: blankAsUnset(
    z.enum(['on', 'off'], { error: 'must be on or off' }).default('off'),
  ).describe(
    '`on`: subscriptions may name http:// endpoints on private or loopback addresses, so a local stand-in of a push service receives. Refused when `NODE_ENV=production`.',
  ),
});

const pushEnvSchema = pushSettings.extend(pushTestSettings.shape);

const base64urlBytes = (value: string): Buffer | null =>
  /^[A-Za-z0-9_-]+$/.test(value) ? Buffer.from(value, 'base64url') : null;

/** Whether `publicKey` is the uncompressed P-256 point of `privateKey` (both base64url). */
export function isVapidKeyPair(publicKey: string, privateKey: string): boolean {
  const pub = base64urlBytes(publicKey);
  const priv = base64urlBytes(privateKey);
  if (pub?.length !== 65 || pub[0] !== 4 || priv?.length !== 32) return false;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(priv);
    return ecdh.getPublicKey().equals(pub);
  } catch {
    return false;
  }
}

/** A new VAPID key pair (P-256), base64url like the push API wants them. */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  let privateKey = ecdh.getPrivateKey();
  // A private key with leading zero bytes comes out short: pad it to 32.
  if (privateKey.length < 32)
    privateKey = Buffer.concat([Buffer.alloc(32 - privateKey.length), privateKey]);
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: privateKey.toString('base64url'),
  };
}

function isSubject(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'mailto:' ? /.+@.+/.test(url.pathname) : url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The address in MAIL_FROM ("Name <a@b>" or "a@b"), the default VAPID contact. */
function mailFromAddress(mailFrom: string): string {
  return (/<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom).trim();
}

/** Reads the push settings; problems join the rest of the configuration's. */
export function readPushConfig(
  source: NodeJS.ProcessEnv,
  context: { production: boolean; mailFrom: string },
  problems: string[],
): PushConfig {
  const parsed = pushEnvSchema.safeParse(source);
  if (!parsed.success) {
    for (const i of parsed.error.issues) problems.push(`${i.path.join('.')}: ${i.message}`);
    return { vapid: null, subject: '', testEndpoints: false };
  }
  const env = parsed.data;
  const publicKey = env.VAPID_PUBLIC_KEY;
  const privateKey = env.VAPID_PRIVATE_KEY;
  let vapid: PushConfig['vapid'] = null;
  if (publicKey || privateKey) {
    if (!publicKey || !privateKey) {
      problems.push(
        'VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both, or neither (then DATA_DIR keeps a generated pair)',
      );
    } else if (!isVapidKeyPair(publicKey, privateKey)) {
      problems.push(
        'VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: must be a P-256 key pair in base64url (65-byte public point, 32-byte private key), such as `npx web-push generate-vapid-keys` prints',
      );
    } else {
      vapid = { publicKey, privateKey };
    }
  }
  const subject = env.VAPID_SUBJECT ?? `mailto:${mailFromAddress(context.mailFrom)}`;
  if (!isSubject(subject)) {
    problems.push(
      env.VAPID_SUBJECT
        ? 'VAPID_SUBJECT: must be a mailto: address or an https:// URL where the push services can reach the operator'
        : 'VAPID_SUBJECT: required when MAIL_FROM holds no e-mail address (a mailto: or https:// URL)',
    );
  }
  const testEndpoints = env.PUSH_TEST_ENDPOINTS === 'on';
  if (testEndpoints && context.production) {
    problems.push('PUSH_TEST_ENDPOINTS: for tests only, refused when NODE_ENV=production');
  }
  return { vapid, subject, testEndpoints };
}
