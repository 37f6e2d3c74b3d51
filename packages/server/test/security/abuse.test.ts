import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../helpers';

const WINDOW_MINUTES = 1;

function signIn(t: TestApp, body: object, ip: string, forwardedFor?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    payload: body,
    remoteAddress: ip,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
}

/**
 * What features/accounts/rate-limit.test.ts leaves out: the window ending. The shortest window the
 * configuration takes is one minute, so the clock (Date only: the limiter reads Date.now) is moved
 * past it instead of waiting.
 */
describe(`sign-in limits over time (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMIT_WINDOW_MINUTES: String(WINDOW_MINUTES),
      RATE_LIMIT_SIGNIN_PER_IP: '4',
      RATE_LIMIT_SIGNIN_PER_ACCOUNT: '3',
    });
  });
  afterAll(() => t.close());
  afterEach(() => vi.useRealTimers());

  it('blocks a guessed account at the configured count from any IP, and lets its owner back in after the window', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const victim = await createUser(t);
    for (const n of [1, 2, 3]) {
      const res = await signIn(t, { email: victim.email, password: `guess-${n}` }, `10.9.0.${n}`);
      expect(res.statusCode).toBe(401);
    }
    const owner = await signIn(t, { email: victim.email, password: victim.password }, '10.9.1.1');
    expect(owner.statusCode).toBe(429);

    vi.setSystemTime(Date.now() + WINDOW_MINUTES * 60_000 + 1000);
    const later = await signIn(t, { email: victim.email, password: victim.password }, '10.9.1.1');
    expect(later.statusCode).toBe(200);
  });

  it('keeps counting one IP whatever X-Forwarded-For it sends (TRUST_PROXY unset), until the window ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const user = await createUser(t);
    const ip = '10.8.0.1';
    for (let n = 0; n < 4; n++) {
      const res = await signIn(
        t,
        { email: `nobody${n}@richmond.edu`, password: 'x' },
        ip,
        `198.51.100.${n}`,
      );
      expect(res.statusCode).toBe(401);
    }
    for (const spoof of ['198.51.100.99', '127.0.0.1', '10.8.0.2, 10.8.0.3']) {
      const res = await signIn(t, { email: user.email, password: user.password }, ip, spoof);
      expect(res.statusCode).toBe(429);
    }
    vi.setSystemTime(Date.now() + WINDOW_MINUTES * 60_000 + 1000);
    expect((await signIn(t, { email: user.email, password: user.password }, ip)).statusCode).toBe(
      200,
    );
  });
});
