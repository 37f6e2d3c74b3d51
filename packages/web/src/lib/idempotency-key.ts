/**
 * A key for one typed message (sent as its `clientId`): a send tried again after a failed
 * connection, or tapped twice, carries the same key, so the server writes the message once. (randomUUID needs a secure context;
 * a campus server on plain http gets the same 122 random bits another way.)
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The key of one text typed in one composer: the same text sent again is the same message. */
export function idempotencyKey(nonce: string, text: string): string {
  // FNV-1a over the text: another text (edited after a failure) is another message.
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
  }
  return `${nonce}.${hash.toString(16)}`;
}
