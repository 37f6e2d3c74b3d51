import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campusCommand, writeCampusFiles } from '../../../test/campuses';
import { TEST_ENGINE } from '../../../test/helpers';
import {
  signInAtProvider,
  startTestOidcProvider,
  type TestOidcProvider,
} from '../../../test/support/oidc-test-provider';
import {
  CAMPUS_HOSTS,
  openTwoCampuses,
  type CampusKey,
  type TwoCampuses,
} from '../../../test/two-campuses';

/** The variable alpha's campus file names for its client secret (never the secret itself). */
const SECRET_ENV = 'ALPHA_TEST_OIDC_SECRET';
const ALPHA = `http://${CAMPUS_HOSTS.alpha}`;
const SIGN_ON_NAME = 'Alpha Single Sign-On';

const cookieOf = (res: LightMyRequestResponse, name: string) => {
  const c = res.cookies.find((x) => x.name === name);
  return c?.value ? `${name}=${c.value}` : '';
};

// Each campus its own sign-on provider (decision 024, docs/sso.md "Many campuses"), on
// PostgreSQL: alpha's file names a real OpenID provider, its secret by a variable's name; beta's
// names none. Alpha's host signs in through alpha's provider into alpha's schema only; beta's host
// has no sign-on; alpha's flow and first sign-in are refused on beta's host.
describe.skipIf(TEST_ENGINE !== 'postgres')("each campus's own sign-on provider", () => {
  let two: TwoCampuses;
  let idp: TestOidcProvider;
  let n = 0;

  beforeAll(async () => {
    idp = await startTestOidcProvider([
      `${ALPHA}/api/sso/oidc/callback`,
      `http://${CAMPUS_HOSTS.beta}/api/sso/oidc/callback`,
    ]);
    // The app servers' environment holds the secret the campus file names.
    process.env[SECRET_ENV] = idp.clientSecret;
    two = await openTwoCampuses({
      // The process's own address, which neither campus's provider may send students back to.
      env: { PUBLIC_URL: 'http://installation.example' },
      commandEnv: { [SECRET_ENV]: idp.clientSecret },
      campusFields: {
        alpha: {
          sso: {
            protocol: 'oidc',
            name: SIGN_ON_NAME,
            admitAffiliations: ['student@alpha.example.edu'],
            oidc: {
              issuer: idp.issuer,
              clientId: idp.clientId,
              clientSecretEnv: SECRET_ENV,
              scopes: 'openid email profile eduperson',
            },
          },
        },
      },
    });
  }, 120_000);

  afterAll(async () => {
    await two?.close();
    await idp?.close();
    delete process.env[SECRET_ENV];
  });

  /** A student of alpha's at the provider; the login name. */
  function alphaStudent() {
    n += 1;
    const login = `alpha-student-${n}-${Date.now()}`;
    idp.accounts.set(login, {
      email: `${login}@${two.campuses.domains.alpha}`,
      email_verified: true,
      given_name: 'Ada',
      family_name: `Lovelace${n}`,
      eduperson_scoped_affiliation: ['student@alpha.example.edu'],
    });
    return login;
  }

  /** A sign-on started on alpha's host, through the provider: the callback and its flow cookie. */
  async function throughAlphaProvider(login: string) {
    const start = await two.send('alpha', 'GET', '/api/sso/start?returnTo=/saved');
    expect(start.statusCode, start.body).toBe(303);
    const authorizeUrl = new URL(String(start.headers.location));
    expect(authorizeUrl.origin).toBe(idp.issuer);
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${ALPHA}/api/sso/oidc/callback`);
    const back = await signInAtProvider(authorizeUrl.toString(), login);
    expect(back.origin).toBe(ALPHA);
    return { path: `${back.pathname}${back.search}`, cookie: cookieOf(start, 'cb_sso_flow') };
  }

  const usersNamed = async (key: CampusKey | 'public', email: string) => {
    const schema = key === 'public' ? 'public' : `campus_${key}`;
    const { rows } = await two.admin.query<{ id: string }>(
      `SELECT id FROM ${schema}.users WHERE email = $1`,
      [email],
    );
    return rows.length;
  };

  it("names each campus's own sign-on to the web app: alpha's provider, none on beta", async () => {
    const alpha = await two.send('alpha', 'GET', '/api/config');
    expect(alpha.json()).toMatchObject({
      sso: { name: SIGN_ON_NAME, protocol: 'oidc' },
      passwordSignUp: true,
    });
    const beta = await two.send('beta', 'GET', '/api/config');
    expect(beta.json()).toMatchObject({ sso: null, passwordSignUp: true });
    // The provider's settings are the server's: the campus sent to the web app has none.
    const campus = await two.send('alpha', 'GET', '/api/campus');
    expect(campus.json()).not.toHaveProperty('sso');
  });

  it("signs a student in on alpha's host through alpha's provider, into alpha only", async () => {
    const login = alphaStudent();
    const email = `${login}@${two.campuses.domains.alpha}`;
    const cb = await throughAlphaProvider(login);
    const landed = await two.send('alpha', 'GET', cb.path, { cookie: cb.cookie });
    expect(landed.statusCode, landed.body).toBe(303);
    expect(landed.headers.location).toBe('/sso/finish');
    const pending = cookieOf(landed, 'cb_sso_pending');

    const shown = await two.send('alpha', 'GET', '/api/sso/pending', { cookie: pending });
    expect(shown.json()).toMatchObject({ name: SIGN_ON_NAME, email });
    const done = await two.send('alpha', 'POST', '/api/sso/finish', {
      cookie: pending,
      payload: { groupmelink: 'https://groupme.com/contact/1' },
    });
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json()).toMatchObject({ returnTo: '/saved', user: { email } });

    expect(await usersNamed('alpha', email)).toBe(1);
    expect(await usersNamed('beta', email)).toBe(0);
    expect(await usersNamed('public', email)).toBe(0);
    const { rows } = await two.admin.query<{ n: string }>(
      'SELECT count(*) AS n FROM campus_alpha.sso_identities WHERE subject = $1',
      [login],
    );
    expect(Number(rows[0]!.n)).toBe(1);

    // Signed in on alpha's host; the session is no one's on beta's.
    const session = await two.send('alpha', 'GET', '/api/auth/session', {
      cookie: cookieOf(done, 'cb_session'),
    });
    expect(session.json().user.email).toBe(email);
  });

  it("answers 404 in the API's error shape on beta's host, which names no provider", async () => {
    for (const [method, url] of [
      ['GET', '/api/sso/start?returnTo=/saved'],
      ['GET', '/api/sso/oidc/callback?code=x&state=y'],
      ['GET', '/api/sso/pending'],
      ['GET', '/api/sso/logout'],
      ['GET', '/api/sso/saml/metadata'],
      ['GET', '/api/sso/cas/callback?ticket=ST-1'],
    ] as const) {
      const res = await two.send('beta', method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ success: false, statusCode: 404 });
    }
    // Alpha speaks OIDC only: the other protocols' routes are not alpha's either.
    const metadata = await two.send('alpha', 'GET', '/api/sso/saml/metadata');
    expect(metadata.statusCode).toBe(404);
  });

  it("refuses alpha's flow and first sign-in on beta's host", async () => {
    const login = alphaStudent();
    const email = `${login}@${two.campuses.domains.alpha}`;
    const cb = await throughAlphaProvider(login);
    // Alpha's state, code and flow cookie, brought to beta's host.
    const onBeta = await two.send('beta', 'GET', cb.path, { cookie: cb.cookie });
    expect(onBeta.statusCode).toBe(404);
    expect(onBeta.cookies.find((c) => c.name === 'cb_sso_pending' && c.value)).toBeUndefined();

    // Alpha's first sign-in, pending, brought to beta's host to finish there.
    const landed = await two.send('alpha', 'GET', cb.path, { cookie: cb.cookie });
    const pending = cookieOf(landed, 'cb_sso_pending');
    expect(pending).not.toBe('');
    const finish = await two.send('beta', 'POST', '/api/sso/finish', {
      cookie: pending,
      payload: { groupmelink: 'https://groupme.com/contact/1' },
    });
    expect(finish.statusCode).toBe(404);
    expect(await usersNamed('beta', email)).toBe(0);
    expect(await usersNamed('alpha', email)).toBe(0);
  });

  it('refuses a campus file whose secret variable is not set, naming it', async () => {
    const unset = 'GAMMA_OIDC_SECRET_NOT_SET';
    const files = writeCampusFiles(['gamma'], {
      gamma: {
        sso: {
          protocol: 'oidc',
          oidc: { issuer: idp.issuer, clientId: 'gamma', clientSecretEnv: unset },
        },
      },
    });
    try {
      const added = await campusCommand(
        two.url,
        'add',
        'gamma',
        '--host',
        'books.gamma.example',
        '--config',
        files.files.gamma!,
      );
      expect(added.code).toBe(65);
      expect(added.err).toContain(`sso.oidc.clientSecretEnv: the environment variable ${unset}`);
      const { rows } = await two.admin.query(`SELECT key FROM directory.campuses`);
      expect(rows.map((r: { key: string }) => r.key).sort()).toEqual(['alpha', 'beta']);
    } finally {
      files.remove();
    }
    // An app server whose environment lacks alpha's secret does not start.
    delete process.env[SECRET_ENV];
    try {
      await expect(two.anotherApp({})).rejects.toThrow(
        `campus alpha: sso.oidc.clientSecretEnv: the environment variable ${SECRET_ENV} is not set`,
      );
    } finally {
      process.env[SECRET_ENV] = idp.clientSecret;
    }
  });
});

// The wall between campuses that share one provider (a university system's): each campus's flow
// and first sign-in are signed with a key of its own, so what alpha's host set is refused on beta's.
describe.skipIf(TEST_ENGINE !== 'postgres')('two campuses at one provider', () => {
  let two: TwoCampuses;
  let idp: TestOidcProvider;

  beforeAll(async () => {
    idp = await startTestOidcProvider(
      (['alpha', 'beta'] as const).map((k) => `http://${CAMPUS_HOSTS[k]}/api/sso/oidc/callback`),
    );
    process.env[SECRET_ENV] = idp.clientSecret;
    const sso = {
      protocol: 'oidc',
      oidc: { issuer: idp.issuer, clientId: idp.clientId, clientSecretEnv: SECRET_ENV },
    };
    two = await openTwoCampuses({
      commandEnv: { [SECRET_ENV]: idp.clientSecret },
      campusFields: { alpha: { sso }, beta: { sso } },
    });
  }, 120_000);

  afterAll(async () => {
    await two?.close();
    await idp?.close();
    delete process.env[SECRET_ENV];
  });

  it("refuses alpha's flow at beta's callback, and alpha's first sign-in at beta's finish", async () => {
    const login = `shared-${Date.now()}`;
    const email = `${login}@${two.campuses.domains.alpha}`;
    idp.accounts.set(login, { email, email_verified: true, given_name: 'Ada', family_name: 'L' });
    const start = await two.send('alpha', 'GET', '/api/sso/start');
    const back = await signInAtProvider(String(start.headers.location), login);
    const path = `${back.pathname}${back.search}`;
    const flow = cookieOf(start, 'cb_sso_flow');

    const onBeta = await two.send('beta', 'GET', path, { cookie: flow });
    expect(onBeta.statusCode).toBe(303);
    expect(onBeta.headers.location).toBe('/sso/problem?reason=failed');

    // A fresh flow on alpha's host up to its first sign-in's last step…
    const again = await two.send('alpha', 'GET', '/api/sso/start');
    const backAgain = await signInAtProvider(String(again.headers.location), login);
    const landed = await two.send('alpha', 'GET', `${backAgain.pathname}${backAgain.search}`, {
      cookie: cookieOf(again, 'cb_sso_flow'),
    });
    expect(landed.headers.location).toBe('/sso/finish');
    const pending = cookieOf(landed, 'cb_sso_pending');
    // …is no first sign-in on beta's host: no account of alpha's identity is made there.
    const shown = await two.send('beta', 'GET', '/api/sso/pending', { cookie: pending });
    expect(shown.statusCode).toBe(401);
    const finish = await two.send('beta', 'POST', '/api/sso/finish', {
      cookie: pending,
      payload: { groupmelink: 'https://groupme.com/contact/1' },
    });
    expect(finish.statusCode).toBe(401);
    const { rows } = await two.admin.query('SELECT id FROM campus_beta.users WHERE email = $1', [
      email,
    ]);
    expect(rows).toEqual([]);
    // On alpha's own host the same step finishes.
    const done = await two.send('alpha', 'POST', '/api/sso/finish', {
      cookie: pending,
      payload: { groupmelink: 'https://groupme.com/contact/1' },
    });
    expect(done.statusCode, done.body).toBe(201);
  });
});
