import { webcrypto } from 'node:crypto';

export type HmacKey = webcrypto.CryptoKey;

/**
 * An HMAC-SHA-256 key for jose to sign and check a cookie's token with (sessions, known devices),
 * to be imported once and kept. Given raw bytes instead, jose imports them again (WebCrypto's
 * `importKey`) on every call: half of a session check's cost (docs/performance.md, "A signed-in request's first step").
 */
export function importHmacKey(secret: Uint8Array): Promise<HmacKey> {
  return webcrypto.subtle.importKey(
    'raw',
    Uint8Array.from(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
}
