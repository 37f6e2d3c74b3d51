import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { users } from '../../db/schema';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { GENEROUS_LIMITS, get, post, signUpBody } from '../../../test/accounts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    ...GENEROUS_LIMITS,
    SSO_PROTOCOL: 'oidc',
    SSO_NAME: 'University of Richmond',
    // Nothing listens there: the provider cannot be reached.
    OIDC_ISSUER: 'http://127.0.0.1:9',
    OIDC_CLIENT_ID: 'campus-books',
    PASSWORD_SIGNUP: 'off',
  });
});
afterAll(async () => t?.close());

describe('a campus with sign-on only (PASSWORD_SIGNUP=off)', () => {
  it('refuses the password sign-up and creates nothing', async () => {
    const res = await post(t, '/api/auth/signup', signUpBody());
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      success: false,
      message: 'Sign up with University of Richmond instead',
    });
    const [row] = await t.database.db.select({ n: sql<number>`count(*)` }).from(users);
    expect(Number(row!.n)).toBe(0);
    expect((await get(t, '/api/config')).json()).toMatchObject({
      passwordSignUp: false,
      sso: { name: 'University of Richmond', protocol: 'oidc' },
    });
  });

  it('sends the student to a clear page when the provider cannot be reached', async () => {
    const res = await get(t, '/api/sso/start?returnTo=/saved');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/sso/problem?reason=unavailable');
    expect(res.cookies.find((c) => c.name === 'cb_sso_flow')).toBeUndefined();
  });
});
