import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config';
import { signUpBody } from '../../../test/accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { CHALLENGE_MESSAGES } from './challenge';

const tooMany = /^Too many attempts\. Try again in \d+ minutes?\.$/;

function attempt(
  t: TestApp,
  url: string,
  payload: object,
  from: { ip?: string; forwardedFor?: string } = {},
) {
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: from.ip ?? '127.0.0.1',
    headers: from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {},
  });
}

describe(`attempt limits on the account routes (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMIT_SIGNIN_PER_IP: '3',
      RATE_LIMIT_SIGNIN_PER_ACCOUNT: '2',
      RATE_LIMIT_SIGNUP_PER_IP: '2',
      RATE_LIMIT_MAIL_PER_IP: '3',
      RATE_LIMIT_MAIL_PER_ADDRESS: '2',
    });
  });
  afterAll(() => t.close());

  it('sign-in per IP: past the configured count of failures, 429 asks for a challenge, whatever X-Forwarded-For says', async () => {
    const from = { ip: '10.0.0.1' };
    for (let i = 0; i < 3; i++) {
      const res = await attempt(
        t,
        '/api/auth/signin',
        { email: `x${i}@richmond.edu`, password: 'p' },
        {
          ...from,
          forwardedFor: `203.0.113.${i}`,
        },
      );
      expect(res.statusCode).toBe(401);
    }
    const blocked = await attempt(
      t,
      '/api/auth/signin',
      { email: 'y@richmond.edu', password: 'p' },
      {
        ...from,
        forwardedFor: '198.51.100.7',
      },
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      success: false,
      statusCode: 429,
      message: CHALLENGE_MESSAGES.required,
      challengeRequired: true,
    });

    // Another client is not affected.
    const other = await attempt(
      t,
      '/api/auth/signin',
      { email: 'y@richmond.edu', password: 'p' },
      { ip: '10.0.0.2' },
    );
    expect(other.statusCode).toBe(401);
  });

  it('sign-in per account: the right password is refused too once the account is over its count', async () => {
    const user = await createUser(t);
    for (const ip of ['10.1.0.1', '10.1.0.2']) {
      const res = await attempt(
        t,
        '/api/auth/signin',
        { email: user.email, password: 'wrong-pass' },
        { ip },
      );
      expect(res.statusCode).toBe(401);
    }
    const blocked = await attempt(
      t,
      '/api/auth/signin',
      { email: user.email.toUpperCase(), password: user.password },
      { ip: '10.1.0.3' },
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(tooMany);
    const otherAccount = await createUser(t);
    const ok = await attempt(
      t,
      '/api/auth/signin',
      { email: otherAccount.email, password: otherAccount.password },
      { ip: '10.1.0.3' },
    );
    expect(ok.statusCode).toBe(200);
  });

  it('sign-up per IP: past the configured count, 429 asks for a challenge', async () => {
    const from = { ip: '10.2.0.1' };
    expect((await attempt(t, '/api/auth/signup', signUpBody(), from)).statusCode).toBe(201);
    expect((await attempt(t, '/api/auth/signup', signUpBody(), from)).statusCode).toBe(201);
    const blocked = await attempt(t, '/api/auth/signup', signUpBody(), from);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({
      message: CHALLENGE_MESSAGES.required,
      challengeRequired: true,
    });
  });

  it('sign-up per e-mail address, from any IP', async () => {
    const body = signUpBody();
    for (const ip of ['10.5.0.1', '10.5.0.2']) {
      expect((await attempt(t, '/api/auth/signup', body, { ip })).statusCode).toBe(201);
    }
    const blocked = await attempt(t, '/api/auth/signup', body, { ip: '10.5.0.3' });
    expect(blocked.statusCode).toBe(429);
  });

  it.each(['/api/auth/forgot-password', '/api/auth/resend-verification'])(
    '%s per e-mail address (from any IP) and per IP',
    async (url) => {
      const email = `limited.${url.length}@richmond.edu`;
      expect((await attempt(t, url, { email }, { ip: '10.3.0.1' })).statusCode).toBe(200);
      expect(
        (await attempt(t, url, { email: email.toUpperCase() }, { ip: '10.3.0.2' })).statusCode,
      ).toBe(200);
      const perAddress = await attempt(t, url, { email }, { ip: '10.3.0.3' });
      expect(perAddress.statusCode).toBe(429);
      expect(perAddress.json().message).toMatch(tooMany);

      const ip = { ip: `10.4.0.${url.length}` };
      for (const n of [1, 2, 3]) {
        expect((await attempt(t, url, { email: `n${n}@richmond.edu` }, ip)).statusCode).toBe(200);
      }
      expect((await attempt(t, url, { email: 'n4@richmond.edu' }, ip)).statusCode).toBe(429);
    },
  );
});

describe(`attempt limits behind a trusted proxy (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true', RATE_LIMIT_SIGNIN_PER_IP: '1' });
  });
  afterAll(() => t.close());

  it('counts per X-Forwarded-For client when TRUST_PROXY=true', async () => {
    const body = { email: 'z@richmond.edu', password: 'p' };
    expect(
      (await attempt(t, '/api/auth/signin', body, { forwardedFor: '203.0.113.1' })).statusCode,
    ).toBe(401);
    expect(
      (await attempt(t, '/api/auth/signin', body, { forwardedFor: '203.0.113.1' })).statusCode,
    ).toBe(429);
    expect(
      (await attempt(t, '/api/auth/signin', body, { forwardedFor: '203.0.113.2' })).statusCode,
    ).toBe(401);
  });
});

describe('rate-limit configuration', () => {
  it('has the documented defaults and lets the environment raise them (e2e)', () => {
    const base = { DATA_DIR: '/tmp/unused', SESSION_SECRET: 'x'.repeat(32) };
    expect(loadConfig(base).rateLimits).toEqual({
      windowMs: 60 * 60_000,
      signInPerIp: 500,
      signInPerAccount: 100,
      signUpPerIp: 500,
      mailPerIp: 200,
      mailPerAddress: 5,
      listingsPerAccount: 20,
    });
    expect(loadConfig(base).challenge).toEqual({ cost: 1000, maxCounter: 10_000 });
    const raised = loadConfig({
      ...base,
      RATE_LIMIT_SIGNIN_PER_IP: '1000',
      RATE_LIMIT_SIGNIN_PER_ACCOUNT: '500',
      RATE_LIMIT_WINDOW_MINUTES: '1',
    }).rateLimits;
    expect(raised).toMatchObject({ signInPerIp: 1000, signInPerAccount: 500, windowMs: 60_000 });
    expect(() => loadConfig({ ...base, RATE_LIMIT_SIGNIN_PER_IP: '0' })).toThrow(
      /RATE_LIMIT_SIGNIN_PER_IP/,
    );
  });
});
