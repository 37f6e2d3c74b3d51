import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GENEROUS_LIMITS, post } from '../../../test/accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { lastMailTo, tokenFromLink } from '../../../test/outbox';
import { AUTH_MESSAGES } from './auth.messages';
import type * as PasswordModule from './password';

// Counts the argon2 hashes the app computes (issue 11 item 10: random reset tokens cost a hash).
const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock('./password', async (importOriginal) => {
  const real = await importOriginal<typeof PasswordModule>();
  return {
    ...real,
    hashPassword: (password: string) => {
      hashes.count += 1;
      return real.hashPassword(password);
    },
  };
});

describe(`reset-password with guessed tokens (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...GENEROUS_LIMITS, RATE_LIMIT_SIGNIN_PER_IP: '3' });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    hashes.count = 0;
  });
  const reset = (token: string, password = 'Brand-new-1') =>
    post(t, `/api/auth/reset-password/${token}`, { password });

  it('checks the token before hashing: an unknown token costs no hash', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/auth/reset-password/${'u'.repeat(43)}`,
      payload: { password: 'Brand-new-1' },
      remoteAddress: '10.0.0.1',
    });
    expect(res.json()).toEqual({
      success: false,
      statusCode: 400,
      message: AUTH_MESSAGES.resetInvalid,
    });
    expect(hashes.count).toBe(0);
  });

  it('answers 429 per IP after too many bad tokens; a good link still works', async () => {
    const user = await createUser(t);
    await post(t, '/api/auth/forgot-password', { email: user.email });
    const token = tokenFromLink(await lastMailTo(t, user.email), 'reset-password');
    hashes.count = 0;
    const codes = [];
    for (let i = 0; i < 5; i += 1)
      codes.push((await reset(`guess-${i}-${'x'.repeat(30)}`)).statusCode);
    expect(codes).toEqual([400, 400, 400, 429, 429]);
    expect(hashes.count).toBe(0);
    expect((await reset(token)).statusCode).toBe(200);
    expect(hashes.count).toBe(1);
  });
});
