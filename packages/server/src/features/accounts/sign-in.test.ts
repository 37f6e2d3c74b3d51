import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, GENEROUS_LIMITS, post, sessionCookieOf } from '../../../test/accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { AUTH_MESSAGES } from './auth.messages';

describe(`sign-in, me, sign-out (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
  });
  afterAll(() => t.close());

  it('signs in: an httpOnly SameSite session cookie and the CurrentUser, never the hash', async () => {
    const user = await createUser(t);
    const res = await post(t, '/api/auth/signin', {
      email: user.email.toUpperCase(),
      password: user.password,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'success',
        '_id',
        'username',
        'email',
        'groupmelink',
        'avatar',
        'emailVerified',
        'pendingEmail',
        'createdAt',
      ].sort(),
    );
    expect(body).toMatchObject({
      success: true,
      _id: user.id,
      email: user.email,
      username: user.username,
      groupmelink: user.groupmelink,
      avatar: null,
      emailVerified: true,
      pendingEmail: null,
    });
    expect(res.body).not.toMatch(/argon2|password/i);
    const cookie = res.cookies.find((c) => c.name === 'cb_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    const me = await get(t, '/api/auth/me', sessionCookieOf(res));
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(body);
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    const user = await createUser(t);
    const wrong = await post(t, '/api/auth/signin', { email: user.email, password: 'nope-nope' });
    const unknown = await post(t, '/api/auth/signin', {
      email: 'nobody@richmond.edu',
      password: 'nope-nope',
    });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        success: false,
        statusCode: 401,
        message: AUTH_MESSAGES.wrongCredentials,
      });
      expect(res.cookies).toEqual([]);
    }
  });

  it('tells an unverified user only after the right password', async () => {
    const user = await createUser(t, { verified: false });
    const wrong = await post(t, '/api/auth/signin', { email: user.email, password: 'nope-nope' });
    expect(wrong.statusCode).toBe(401);
    const right = await post(t, '/api/auth/signin', { email: user.email, password: user.password });
    expect(right.statusCode).toBe(403);
    expect(right.json().message).toBe(AUTH_MESSAGES.notVerified);
  });

  it('validates the sign-in body', async () => {
    const res = await post(t, '/api/auth/signin', { email: 'a@richmond.edu' });
    expect(res.json()).toMatchObject({ statusCode: 400, message: 'Password is required' });
  });

  it('GET /me is 401 when signed out', async () => {
    const res = await get(t, '/api/auth/me');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, statusCode: 401 });
  });

  it('POST /signout ends the session server-side: the old cookie no longer works', async () => {
    const user = await createUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signout',
      headers: { cookie: user.cookie },
    });
    expect(res.json()).toEqual({ success: true, message: AUTH_MESSAGES.signedOut });
    const cleared = res.cookies.find((c) => c.name === 'cb_session');
    expect(cleared?.value).toBe('');
    expect((await get(t, '/api/auth/me', user.cookie)).statusCode).toBe(401);
  });

  it('GET /signout changes nothing: a 404 in the API error shape, the session stands', async () => {
    const user = await createUser(t);
    for (const headers of [{}, { 'sec-fetch-site': 'cross-site' }]) {
      const res = await t.app.inject({
        url: '/api/auth/signout',
        headers: { cookie: user.cookie, ...headers },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, statusCode: 404 });
      expect(res.cookies.find((c) => c.name === 'cb_session')).toBeUndefined();
      expect((await get(t, '/api/auth/me', user.cookie)).statusCode).toBe(200);
    }
  });

  describe('forged session tokens are refused', () => {
    const cookieWith = (token: string) => `cb_session=${token}`;

    it('alg none', async () => {
      const user = await createUser(t);
      const { sid } = decodeJwt(user.cookie.split('=')[1]!);
      const token = new UnsecuredJWT({ sid }).setSubject(user.id).setExpirationTime('1h').encode();
      expect((await get(t, '/api/auth/me', cookieWith(token))).statusCode).toBe(401);
    });

    it('signed with another key', async () => {
      const user = await createUser(t);
      const { sid } = decodeJwt(user.cookie.split('=')[1]!);
      const token = await new SignJWT({ sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('another-secret-another-secret-another'));
      expect((await get(t, '/api/auth/me', cookieWith(token))).statusCode).toBe(401);
    });

    it('an edited subject', async () => {
      const [victim, attacker] = [await createUser(t), await createUser(t)];
      const [header, payload, signature] = attacker.cookie.split('=')[1]!.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const edited = Buffer.from(JSON.stringify({ ...claims, sub: victim.id })).toString(
        'base64url',
      );
      const res = await get(t, '/api/auth/me', cookieWith(`${header}.${edited}.${signature}`));
      expect(res.statusCode).toBe(401);
    });

    it('garbage', async () => {
      expect((await get(t, '/api/auth/me', cookieWith('not.a.jwt'))).statusCode).toBe(401);
    });
  });
});
