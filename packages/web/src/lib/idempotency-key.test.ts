import { describe, expect, it } from 'vitest';
import { idempotencyKey, newIdempotencyKey } from './idempotency-key';

describe('idempotency keys of typed messages', () => {
  it('is the same for the same text sent again, and another for an edited text or a new message', () => {
    const nonce = newIdempotencyKey();
    expect(idempotencyKey(nonce, 'Noon works.')).toBe(idempotencyKey(nonce, 'Noon works.'));
    expect(idempotencyKey(nonce, 'Noon works!')).not.toBe(idempotencyKey(nonce, 'Noon works.'));
    expect(idempotencyKey(newIdempotencyKey(), 'Noon works.')).not.toBe(
      idempotencyKey(nonce, 'Noon works.'),
    );
  });

  it('is what the server takes: 1 to 200 visible ASCII characters', () => {
    expect(idempotencyKey(newIdempotencyKey(), 'x'.repeat(2000))).toMatch(/^[\x21-\x7e]{1,200}$/);
  });
});
