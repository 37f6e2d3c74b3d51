import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '@readme/openapi-parser';
import { eq, sql } from 'drizzle-orm';
import { users } from '../../db/schema';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { GENEROUS_LIMITS, get, post, sessionCookieOf, signUpBody } from '../../../test/accounts';
import {
  signInAtProvider,
  startTestOidcProvider,
  type TestOidcProvider,
} from '../../../test/support/oidc-test-provider';

const PUBLIC_URL = 'http://campus.test';
let t: TestApp;
let idp: TestOidcProvider;

beforeAll(async () => {
  idp = await startTestOidcProvider([`${PUBLIC_URL}/api/sso/oidc/callback`]);
  t = await createTestApp({
    ...GENEROUS_LIMITS,
    PUBLIC_URL,
    SCHOOL_EMAIL_DOMAIN: 'richmond.edu',
    SSO_PROTOCOL: 'oidc',
    SSO_NAME: 'University of Richmond',
    SSO_ADMIT_AFFILIATIONS: 'student@richmond.edu,faculty@richmond.edu',
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    OIDC_SCOPES: 'openid email profile eduperson',
  });
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

let n = 0;
/** A student at the provider; returns the login name. */
function student(claims: Record<string, unknown> = {}) {
  n += 1;
  const login = `student-${n}-${Date.now()}`;
  idp.accounts.set(login, {
    email: `${login}@richmond.edu`,
    email_verified: true,
    given_name: 'Grace',
    family_name: `Hopper${n}`,
    eduperson_scoped_affiliation: ['member@richmond.edu', 'student@richmond.edu'],
    ...claims,
  });
  return login;
}

const cookieOf = (res: LightMyRequestResponse, name: string) => {
  const c = res.cookies.find((x) => x.name === name);
  return c?.value ? `${name}=${c.value}` : '';
};
const userCount = async () =>
  Number((await t.database.db.select({ n: sql<number>`count(*)` }).from(users))[0]!.n);

/** Starts a sign-on and signs in at the provider: the callback request to send, with its cookie. */
async function throughProvider(login: string, returnTo = '/saved') {
  const start = await get(t, `/api/sso/start?returnTo=${encodeURIComponent(returnTo)}`);
  expect(start.statusCode).toBe(303);
  const authorizeUrl = String(start.headers.location);
  expect(authorizeUrl.startsWith(`${idp.issuer}/auth?`)).toBe(true);
  const params = new URL(authorizeUrl).searchParams;
  expect(params.get('code_challenge_method')).toBe('S256');
  expect(params.get('state')).toBeTruthy();
  expect(params.get('nonce')).toBeTruthy();
  const back = await signInAtProvider(authorizeUrl, login);
  expect(back.origin).toBe(PUBLIC_URL);
  return { path: `${back.pathname}${back.search}`, cookie: cookieOf(start, 'cb_sso_flow') };
}

function expectRefused(res: LightMyRequestResponse, reason: string) {
  expect(res.statusCode).toBe(303);
  expect(res.headers.location).toBe(`/sso/problem?reason=${reason}`);
  expect(res.cookies.find((c) => c.name === 'cb_session')).toBeUndefined();
  expect(res.cookies.find((c) => c.name === 'cb_sso_pending' && c.value)).toBeUndefined();
}

/** A first sign-in up to its last step: the pending cookie. */
async function firstSignIn(login: string, returnTo = '/saved') {
  const cb = await throughProvider(login, returnTo);
  const res = await get(t, cb.path, cb.cookie);
  expect(res.statusCode).toBe(303);
  expect(res.headers.location).toBe('/sso/finish');
  return cookieOf(res, 'cb_sso_pending');
}

describe('OIDC sign-on against a real OpenID provider (oidc-provider)', () => {
  it('creates the account from the claims, asking only for the GroupMe link, then one click', async () => {
    const login = student();
    const pendingCookie = await firstSignIn(login, '/listing/abc?x=1');
    const pending = await get(t, '/api/sso/pending', pendingCookie);
    expect(pending.json()).toMatchObject({
      name: 'University of Richmond',
      email: `${login}@richmond.edu`,
      firstName: 'Grace',
    });
    const bad = await post(
      t,
      '/api/sso/finish',
      { groupmelink: 'https://evil.example/x' },
      pendingCookie,
    );
    expect(bad.statusCode).toBe(400);
    const done = await post(
      t,
      '/api/sso/finish',
      { groupmelink: 'https://groupme.com/contact/1' },
      pendingCookie,
    );
    expect(done.statusCode).toBe(201);
    expect(done.json()).toMatchObject({
      returnTo: '/listing/abc?x=1',
      user: { email: `${login}@richmond.edu`, username: expect.stringMatching(/^Grace Hopper/) },
    });
    const me = await get(t, '/api/auth/me', sessionCookieOf(done));
    expect(me.json().emailVerified).toBe(true);
    // The same step again (a second tab, a double submit): nothing more is created.
    const again = await post(
      t,
      '/api/sso/finish',
      { groupmelink: 'https://groupme.com/contact/1' },
      pendingCookie,
    );
    expect(again.statusCode).toBe(400);

    // Later sign-ins: straight back to where the student was going.
    const cb = await throughProvider(login, '/saved');
    const later = await get(t, cb.path, cb.cookie);
    expect(later.statusCode).toBe(303);
    expect(later.headers.location).toBe('/saved');
    const session = await get(t, '/api/auth/session', sessionCookieOf(later));
    expect(session.json().user.email).toBe(`${login}@richmond.edu`);
  });

  it('links a verified password account of the same address on first sign-on', async () => {
    const body = signUpBody({ email: `linked.${randomUUID().slice(0, 8)}@richmond.edu` });
    expect((await post(t, '/api/auth/signup', body)).statusCode).toBe(201);
    await t.database.db
      .update(users)
      .set({ emailVerifiedAt: sql`now()` })
      .where(eq(users.email, body.email));
    const [before] = await t.database.db.select().from(users).where(eq(users.email, body.email));
    const login = student({ email: body.email });
    const cb = await throughProvider(login);
    const res = await get(t, cb.path, cb.cookie);
    expect(res.headers.location).toBe('/saved');
    const session = await get(t, '/api/auth/session', sessionCookieOf(res));
    expect(session.json().user._id).toBe(before!.id);
    // The password still works too.
    const signIn = await post(t, '/api/auth/signin', {
      email: body.email,
      password: body.password,
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('replaces an unverified account of the address, never merging into it', async () => {
    const body = signUpBody({ email: `squatter.${randomUUID().slice(0, 8)}@richmond.edu` });
    expect((await post(t, '/api/auth/signup', body)).statusCode).toBe(201);
    const [squatter] = await t.database.db.select().from(users).where(eq(users.email, body.email));
    const login = student({ email: body.email });
    const pendingCookie = await firstSignIn(login);
    const done = await post(
      t,
      '/api/sso/finish',
      { groupmelink: 'https://groupme.com/contact/2' },
      pendingCookie,
    );
    expect(done.statusCode).toBe(201);
    expect(done.json().user._id).not.toBe(squatter!.id);
    const rows = await t.database.db.select().from(users).where(eq(users.email, body.email));
    expect(rows.map((r) => r.id)).toEqual([done.json().user._id]);
    // The squatter's password opens nothing.
    const signIn = await post(t, '/api/auth/signin', {
      email: body.email,
      password: body.password,
    });
    expect(signIn.statusCode).toBe(401);
  });

  describe('hostile callbacks are refused, with no account created or signed in', () => {
    it('a replayed callback (the same code and state)', async () => {
      const login = student();
      const cb = await throughProvider(login);
      expect((await get(t, cb.path, cb.cookie)).headers.location).toBe('/sso/finish');
      const count = await userCount();
      expectRefused(await get(t, cb.path, cb.cookie), 'failed');
      expect(await userCount()).toBe(count);
    });

    it('a used code brought to a new flow', async () => {
      const login = student();
      const cb = await throughProvider(login);
      await get(t, cb.path, cb.cookie);
      const fresh = await get(t, '/api/sso/start');
      const state = new URL(String(fresh.headers.location)).searchParams.get('state')!;
      const forged = new URL(cb.path, PUBLIC_URL);
      forged.searchParams.set('state', state);
      expectRefused(
        await get(t, `${forged.pathname}${forged.search}`, cookieOf(fresh, 'cb_sso_flow')),
        'failed',
      );
    });

    it('a mismatched state, and a callback without the flow cookie', async () => {
      const login = student();
      const cb = await throughProvider(login);
      const forged = new URL(cb.path, PUBLIC_URL);
      forged.searchParams.set('state', 'not-the-state');
      expectRefused(await get(t, `${forged.pathname}${forged.search}`, cb.cookie), 'failed');
      const other = await throughProvider(student());
      expectRefused(await get(t, other.path), 'failed');
    });

    it('an ID token with another nonce, or from another issuer', async () => {
      const count = await userCount();
      // Everything else in the forged token is what a real sign-in needs.
      const whole = (login: string) => ({ sub: login, ...idp.accounts.get(login) });
      // The control: a token forged with the right issuer and nonce is taken (so the refusals
      // below are the checks', not the forgery's).
      const control = student();
      const controlCb = await throughProvider(control);
      idp.forgeIdToken = (nonce) => ({ ...whole(control), iss: idp.issuer, nonce });
      try {
        expect((await get(t, controlCb.path, controlCb.cookie)).headers.location).toBe(
          '/sso/finish',
        );
      } finally {
        idp.forgeIdToken = null;
      }
      for (const forge of [
        (login: string, nonce: string) => ({
          ...whole(login),
          iss: idp.issuer,
          nonce: `${nonce}x`,
        }),
        (login: string, nonce: string) => ({ ...whole(login), iss: `${idp.issuer}/other`, nonce }),
      ]) {
        const login = student();
        const cb = await throughProvider(login);
        idp.forgeIdToken = (nonce) => forge(login, nonce);
        try {
          expectRefused(await get(t, cb.path, cb.cookie), 'failed');
        } finally {
          idp.forgeIdToken = null;
        }
      }
      expect(await userCount()).toBe(count);
    });

    it("an ID token signed by a key not in the provider's JWKS, or with a garbage signature", async () => {
      const count = await userCount();
      for (const signature of ['foreign-key', 'garbage'] as const) {
        const login = student();
        const cb = await throughProvider(login);
        // Everything but the signature is what a real sign-in needs (see the control above).
        idp.forgeIdToken = (nonce) => ({
          sub: login,
          ...idp.accounts.get(login),
          iss: idp.issuer,
          nonce,
        });
        idp.forgedSignature = signature;
        try {
          expectRefused(await get(t, cb.path, cb.cookie), 'failed');
        } finally {
          idp.forgeIdToken = null;
          idp.forgedSignature = 'provider-key';
        }
      }
      expect(await userCount()).toBe(count);
    });

    it('an address outside the campus domain, or one the provider has not verified', async () => {
      for (const [claims, reason] of [
        [{ email: `someone${n}@gmail.com` }, 'outside-domain'],
        [{ email: `x${n}@richmond.edu.evil.com` }, 'outside-domain'],
        [{ email_verified: false }, 'unverified-email'],
      ] as const) {
        const cb = await throughProvider(student(claims));
        expectRefused(await get(t, cb.path, cb.cookie), reason);
      }
    });

    it('an affiliation the campus does not admit', async () => {
      const count = await userCount();
      const cb = await throughProvider(
        student({ eduperson_scoped_affiliation: ['alum@richmond.edu', 'student@other.edu'] }),
      );
      expectRefused(await get(t, cb.path, cb.cookie), 'not-admitted');
      expect(await userCount()).toBe(count);
    });

    it('a callback sent 25 times at once signs in at most once', async () => {
      const login = student();
      const pendingCookie = await firstSignIn(login);
      await post(
        t,
        '/api/sso/finish',
        { groupmelink: 'https://groupme.com/contact/3' },
        pendingCookie,
      );
      const cb = await throughProvider(login);
      const answers = await Promise.all(
        Array.from({ length: 25 }, () => get(t, cb.path, cb.cookie)),
      );
      const signedIn = answers.filter((r) => r.cookies.some((c) => c.name === 'cb_session'));
      expect(signedIn).toHaveLength(1);
      expect(
        answers.filter((r) => r.headers.location === '/sso/problem?reason=failed'),
      ).toHaveLength(24);
    });

    it('a first-sign-in step finished 25 times at once creates one account', async () => {
      const login = student();
      const pendingCookie = await firstSignIn(login);
      const count = await userCount();
      const answers = await Promise.all(
        Array.from({ length: 25 }, () =>
          post(
            t,
            '/api/sso/finish',
            { groupmelink: 'https://groupme.com/contact/4' },
            pendingCookie,
          ),
        ),
      );
      expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(1);
      expect(answers.every((r) => r.statusCode === 201 || r.statusCode === 400)).toBe(true);
      expect(await userCount()).toBe(count + 1);
    });
  });

  it('keeps the return path on this site', async () => {
    for (const returnTo of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '/api/auth/signout',
    ]) {
      const start = await get(t, `/api/sso/start?returnTo=${encodeURIComponent(returnTo)}`);
      const login = student();
      const back = await signInAtProvider(String(start.headers.location), login);
      const res = await get(t, `${back.pathname}${back.search}`, cookieOf(start, 'cb_sso_flow'));
      const pendingCookie = cookieOf(res, 'cb_sso_pending');
      const done = await post(
        t,
        '/api/sso/finish',
        { groupmelink: 'https://groupme.com/contact/5' },
        pendingCookie,
      );
      expect(done.json().returnTo).toBe('/');
    }
  });

  it('offers the provider sign-out and tells the web app how to sign on', async () => {
    const logout = await get(t, '/api/sso/logout');
    expect(logout.statusCode).toBe(303);
    expect(String(logout.headers.location)).toMatch(new RegExp(`^${idp.issuer}/session/end\\?`));
    const config = await get(t, '/api/config');
    expect(config.json()).toMatchObject({
      sso: { name: 'University of Richmond', protocol: 'oidc' },
      passwordSignUp: true,
    });
    const pending = await get(t, '/api/sso/pending');
    expect(pending.statusCode).toBe(401);
    expect(pending.json()).toMatchObject({ success: false, statusCode: 401 });
  });

  it('documents its routes in the OpenAPI document', async () => {
    const document = (await get(t, '/api/openapi.json')).json();
    expect(Object.keys(document.paths).filter((p: string) => p.startsWith('/api/sso'))).toEqual(
      expect.arrayContaining(['/api/sso/start', '/api/sso/oidc/callback', '/api/sso/finish']),
    );
    const result = await validate(structuredClone(document));
    expect(result.valid ? [] : result.errors).toEqual([]);
  });
});
