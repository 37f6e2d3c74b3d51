import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, GENEROUS_LIMITS, post, sessionCookieOf } from '../accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../helpers';

/**
 * What features/accounts/sign-in.test.ts does not already cover: expired tokens, tokens replayed after
 * account deletion, and the Secure flag. (alg none, another key, an edited subject, sign-out and
 * password reset are there and in password-reset.test.ts.)
 */
describe(`session tokens (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
  });
  afterAll(() => t.close());

  const key = () => new TextEncoder().encode(t.config.sessionSecret);
  const claimsOf = (cookie: string) => decodeJwt(cookie.split('=')[1]!);

  it('refuses a correctly signed token whose time is over', async () => {
    const user = await createUser(t);
    const token = await new SignJWT({ sid: claimsOf(user.cookie).sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key());
    expect((await get(t, '/api/auth/me', `cb_session=${token}`)).statusCode).toBe(401);
    expect((await get(t, '/api/auth/me', user.cookie)).statusCode).toBe(200);
  });

  it('refuses a token re-signed with a far expiry for a session the server has ended', async () => {
    const user = await createUser(t);
    const { sid } = claimsOf(user.cookie);
    await post(t, '/api/auth/signout', undefined, user.cookie);
    const token = await new SignJWT({ sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setExpirationTime('1y')
      .sign(key());
    expect((await get(t, '/api/auth/me', `cb_session=${token}`)).statusCode).toBe(401);
  });

  it('refuses the tokens of a deleted account, on every device', async () => {
    const user = await createUser(t);
    const other = await post(t, '/api/auth/signin', { email: user.email, password: user.password });
    const otherCookie = sessionCookieOf(other);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/delete/${user.id}`,
      headers: { cookie: user.cookie },
      payload: { currentPassword: user.password },
    });
    expect(res.statusCode).toBe(200);
    for (const cookie of [user.cookie, otherCookie]) {
      expect((await get(t, '/api/auth/me', cookie)).statusCode).toBe(401);
      const create = await post(t, '/api/listing/create', { name: 'x' }, cookie);
      expect(create.statusCode).toBe(401);
    }
  });

  it('sets the cookie HttpOnly, SameSite=Lax, Path=/ and not Secure on http', async () => {
    const user = await createUser(t);
    const res = await post(t, '/api/auth/signin', { email: user.email, password: user.password });
    const header = String(res.headers['set-cookie']);
    expect(header).toMatch(/^cb_session=[^;]+;/);
    expect(header).toMatch(/; HttpOnly/i);
    expect(header).toMatch(/; SameSite=Lax/i);
    expect(header).toMatch(/; Path=\//);
    expect(header).not.toMatch(/; Secure/i);
  });
});

describe(`session cookie behind HTTPS (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...GENEROUS_LIMITS, PUBLIC_URL: 'https://books.example.edu' });
  });
  afterAll(() => t.close());

  it('is Secure when PUBLIC_URL is https, on sign-in and on sign-out', async () => {
    const user = await createUser(t);
    const res = await post(t, '/api/auth/signin', { email: user.email, password: user.password });
    expect(String(res.headers['set-cookie'])).toMatch(/; Secure/i);
    const out = await post(t, '/api/auth/signout', undefined, sessionCookieOf(res));
    expect(String(out.headers['set-cookie'])).toMatch(/; Secure/i);
  });
});
