import { webcrypto } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { get, GENEROUS_LIMITS, post, sessionCookieOf } from '../../../test/accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';

describe(`GET /api/auth/session (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(GENEROUS_LIMITS);
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('answers a signed-out visitor 200 with a null user, uncached', async () => {
    const res = await get(t, '/api/auth/session');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, user: null });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers a signed-in visitor with the CurrentUser of /me, never the hash', async () => {
    const user = await createUser(t);
    const signIn = await post(t, '/api/auth/signin', {
      email: user.email,
      password: user.password,
    });
    const cookie = sessionCookieOf(signIn);
    const res = await get(t, '/api/auth/session', cookie);
    expect(res.statusCode).toBe(200);
    const { success: _success, ...me } = (await get(t, '/api/auth/me', cookie)).json();
    expect(res.json()).toEqual({ success: true, user: me });
    expect(res.json().user).toMatchObject({ _id: user.id, email: user.email });
    expect(res.body).not.toMatch(/argon2|password/i);
  });

  it('answers null once the session has ended, and for a cookie that is not a session', async () => {
    const user = await createUser(t);
    expect((await get(t, '/api/auth/session', user.cookie)).json().user).toMatchObject({
      _id: user.id,
    });
    await post(t, '/api/auth/signout', undefined, user.cookie);
    const ended = await get(t, '/api/auth/session', user.cookie);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ success: true, user: null });

    const garbage = await get(t, '/api/auth/session', 'cb_session=not.a.jwt');
    expect(garbage.statusCode).toBe(200);
    expect(garbage.json()).toEqual({ success: true, user: null });
  });

  it("checks a session token's signature once, then only its session row", async () => {
    const user = await createUser(t);
    const verify = vi.spyOn(webcrypto.subtle, 'verify');
    for (let i = 0; i < 3; i++) {
      expect((await get(t, '/api/auth/session', user.cookie)).json().user).toMatchObject({
        _id: user.id,
      });
    }
    expect(verify).toHaveBeenCalledTimes(1);
    // The row is still read every time: ended, the session stops at once.
    await post(t, '/api/auth/signout', undefined, user.cookie);
    expect((await get(t, '/api/auth/session', user.cookie)).json().user).toBeNull();
  });

  it('refuses a token past its expiry, though its signature was checked before', async () => {
    const user = await createUser(t);
    expect((await get(t, '/api/auth/session', user.cookie)).json().user).not.toBeNull();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31 * 24 * 60 * 60 * 1000 });
    expect((await get(t, '/api/auth/session', user.cookie)).json().user).toBeNull();
  });
});
