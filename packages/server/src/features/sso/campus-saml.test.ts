import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campusDomainOf } from '../../../test/campuses';
import { TEST_ENGINE } from '../../../test/helpers';
import { startCasStandIn, type CasStandIn } from '../../../test/support/cas-stand-in';
import {
  hasSimpleSamlPhp,
  signInAtIdp,
  startSimpleSamlPhp,
  type TestIdp,
} from '../../../test/support/simplesamlphp';
import {
  CAMPUS_HOSTS,
  CAMPUS_KEYS,
  openTwoCampuses,
  type CampusKey,
  type TwoCampuses,
} from '../../../test/two-campuses';

const ORIGIN = { alpha: `http://${CAMPUS_HOSTS.alpha}`, beta: `http://${CAMPUS_HOSTS.beta}` };
/** Each campus's SP at its own host (its entity id by default: its metadata's address). */
const SP = {
  alpha: {
    entityId: `${ORIGIN.alpha}/api/sso/saml/metadata`,
    acsUrl: `${ORIGIN.alpha}/api/sso/saml/acs`,
  },
  beta: {
    entityId: `${ORIGIN.beta}/api/sso/saml/metadata`,
    acsUrl: `${ORIGIN.beta}/api/sso/saml/acs`,
  },
};
const other = (key: CampusKey): CampusKey => (key === 'alpha' ? 'beta' : 'alpha');

/** A student of `key`'s at the shared IdP: an address and an affiliation that campus admits. */
const studentAt = (key: CampusKey, login: string) => ({
  mail: [`${login}@${campusDomainOf(key)}`],
  givenName: ['Sam'],
  sn: [`Student ${login}`],
  eduPersonPrincipalName: [`${login}@${campusDomainOf(key)}`],
  eduPersonScopedAffiliation: [`student@${campusDomainOf(key)}`],
});
/** Logins of the IdP: `<campus>-<n>`, each a student of that campus. */
const LOGINS = CAMPUS_KEYS.flatMap((key) => [1, 2, 3, 4, 5].map((n) => `${key}-${n}`));
const campusOfLogin = (login: string) => login.split('-')[0] as CampusKey;
const emailOf = (login: string) => `${login}@${campusDomainOf(campusOfLogin(login))}`;

const cookieOf = (res: LightMyRequestResponse, name: string) => {
  const c = res.cookies.find((x) => x.name === name);
  return c?.value ? `${name}=${c.value}` : '';
};
/** An address's rows in a campus's schema: its account and its link to the provider. */
const SIGNED_UP = { users: 1, links: 1 };
const NONE = { users: 0, links: 0 };
const FINISH = { groupmelink: 'https://groupme.com/contact/1' };

/** The AuthnRequest of a redirect to the IdP (HTTP-Redirect binding): its ID and RelayState. */
function requestOf(location: string) {
  const url = new URL(location);
  const xml = inflateRawSync(
    Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64'),
  ).toString();
  return {
    url,
    xml,
    id: / ID="([^"]+)"/.exec(xml)![1]!,
    relayState: url.searchParams.get('RelayState')!,
  };
}

// Each campus its own SAML service provider (decision 024, docs/sso.md "Many campuses"), on
// PostgreSQL, against a real SimpleSAMLphp that knows both campuses' SPs (a university system's
// IdP): a response is good only at the ACS of the campus it was issued for.
describe.skipIf(TEST_ENGINE !== 'postgres' || !hasSimpleSamlPhp())(
  "each campus's own SAML or CAS sign-on",
  () => {
    let idp: TestIdp;
    const samlSection = (key: CampusKey) => ({
      protocol: 'saml',
      name: `${key} Single Sign-On`,
      admitAffiliations: [`student@${campusDomainOf(key)}`],
      saml: { idpSsoUrl: idp.ssoUrl, idpEntityId: idp.entityId, idpCertFile: idp.certFile },
    });

    beforeAll(async () => {
      const users = Object.fromEntries(LOGINS.map((l) => [l, studentAt(campusOfLogin(l), l)]));
      idp = await startSimpleSamlPhp([SP.alpha, SP.beta], users);
    }, 60_000);
    afterAll(async () => {
      await idp?.close();
    });

    /** What the suites ask of their two campuses. */
    const campusSteps = (getTwo: () => TwoCampuses) => {
      const postAcs = (
        key: CampusKey,
        form: { SAMLResponse: string; RelayState: string },
        cookie: string,
      ) =>
        getTwo().app.inject({
          method: 'POST',
          url: '/api/sso/saml/acs',
          headers: {
            host: CAMPUS_HOSTS[key],
            cookie,
            'content-type': 'application/x-www-form-urlencoded',
            origin: new URL(idp.url).origin,
            'sec-fetch-site': 'cross-site',
          },
          payload: new URLSearchParams(form).toString(),
        });
      /** A sign-on started on `key`'s host: the redirect to the IdP and the flow cookie. */
      async function start(key: CampusKey) {
        const res = await getTwo().send(key, 'GET', '/api/sso/start?returnTo=/saved');
        expect(res.statusCode, res.body).toBe(303);
        const location = String(res.headers.location);
        expect(location.startsWith(`${idp.ssoUrl}?`)).toBe(true);
        return { location, cookie: cookieOf(res, 'cb_sso_flow') };
      }
      /** Started on `key`'s host and answered by the IdP: the form it posts, and the flow cookie. */
      async function throughIdp(key: CampusKey, login: string) {
        const started = await start(key);
        const form = await signInAtIdp(started.location, login);
        expect(form.action).toBe(SP[key].acsUrl);
        return { form, cookie: started.cookie };
      }
      /** The rows an address has in a campus's schema: users, and SSO links to them. */
      async function rowsOf(key: CampusKey, email: string) {
        const { rows } = await getTwo().admin.query<{ users: string; links: string }>(
          `SELECT (SELECT count(*) FROM campus_${key}.users WHERE email = $1) AS users,
                  (SELECT count(*) FROM campus_${key}.sso_identities i
                     JOIN campus_${key}.users u ON u.id = i.user_id WHERE u.email = $1) AS links`,
          [email],
        );
        return { users: Number(rows[0]!.users), links: Number(rows[0]!.links) };
      }
      function expectNoSignIn(res: LightMyRequestResponse) {
        expect(res.cookies.find((c) => c.name === 'cb_session' && c.value)).toBeUndefined();
        expect(res.cookies.find((c) => c.name === 'cb_sso_pending' && c.value)).toBeUndefined();
      }
      /** A first sign-in's last step on `key`'s host: the new session's cookie. */
      async function finish(key: CampusKey, landed: LightMyRequestResponse, email: string) {
        expect(landed.statusCode, landed.body).toBe(303);
        expect(landed.headers.location).toBe('/sso/finish');
        const pending = cookieOf(landed, 'cb_sso_pending');
        const done = await getTwo().send(key, 'POST', '/api/sso/finish', {
          cookie: pending,
          payload: FINISH,
        });
        expect(done.statusCode, done.body).toBe(201);
        expect(done.json()).toMatchObject({ returnTo: '/saved', user: { email } });
        return cookieOf(done, 'cb_session');
      }
      return { postAcs, start, throughIdp, rowsOf, expectNoSignIn, finish };
    };

    describe('alpha signs on through SAML, beta through CAS', () => {
      let two: TwoCampuses;
      let cas: CasStandIn;
      const steps = campusSteps(() => two);

      beforeAll(async () => {
        cas = await startCasStandIn();
        two = await openTwoCampuses({
          // The process's own address, which neither campus's provider may send students back to.
          env: { PUBLIC_URL: 'http://installation.example' },
          campusFields: {
            alpha: { sso: samlSection('alpha') },
            beta: { sso: { protocol: 'cas', cas: { baseUrl: cas.url } } },
          },
        });
      }, 120_000);
      afterAll(async () => {
        await two?.close();
        await cas?.close();
      });

      it("names each campus's own protocol, and serves SP metadata on alpha's host only", async () => {
        expect((await two.send('alpha', 'GET', '/api/config')).json()).toMatchObject({
          sso: { protocol: 'saml', name: 'alpha Single Sign-On' },
        });
        expect((await two.send('beta', 'GET', '/api/config')).json()).toMatchObject({
          sso: { protocol: 'cas' },
        });
        const metadata = await two.send('alpha', 'GET', '/api/sso/saml/metadata');
        expect(metadata.statusCode).toBe(200);
        expect(metadata.body).toContain(`entityID="${SP.alpha.entityId}"`);
        expect(metadata.body).toContain(`Location="${SP.alpha.acsUrl}"`);
        expect(metadata.body).not.toContain('installation.example');
        const onBeta = await two.send('beta', 'GET', '/api/sso/saml/metadata');
        expect(onBeta.statusCode).toBe(404);
        expect(onBeta.json()).toMatchObject({ success: false, statusCode: 404 });
      });

      it("signs a student in on alpha's host through SAML, into alpha's schema only", async () => {
        const login = 'alpha-1';
        const { form, cookie } = await steps.throughIdp('alpha', login);
        const session = await steps.finish(
          'alpha',
          await steps.postAcs('alpha', form, cookie),
          emailOf(login),
        );
        expect(await steps.rowsOf('alpha', emailOf(login))).toEqual(SIGNED_UP);
        expect(await steps.rowsOf('beta', emailOf(login))).toEqual(NONE);
        // The session is alpha's: signed in on alpha's host, no one on beta's.
        const onAlpha = await two.send('alpha', 'GET', '/api/auth/session', { cookie: session });
        expect(onAlpha.json()).toMatchObject({ user: { email: emailOf(login) } });
        const onBeta = await two.send('beta', 'GET', '/api/auth/session', { cookie: session });
        expect(onBeta.json()).toMatchObject({ user: null });
      });

      it("refuses alpha's valid response at beta's ACS, which takes none, and takes it at alpha's", async () => {
        const login = 'alpha-2';
        const { form, cookie } = await steps.throughIdp('alpha', login);
        const onBeta = await steps.postAcs('beta', form, cookie);
        expect(onBeta.statusCode).toBe(404);
        expect(onBeta.json()).toMatchObject({ success: false, statusCode: 404 });
        steps.expectNoSignIn(onBeta);
        expect(await steps.rowsOf('beta', emailOf(login))).toEqual(NONE);
        expect(await steps.rowsOf('alpha', emailOf(login))).toEqual(NONE);
        // The same response was good: alpha's own ACS takes it.
        await steps.finish('alpha', await steps.postAcs('alpha', form, cookie), emailOf(login));
        expect(await steps.rowsOf('beta', emailOf(login))).toEqual(NONE);
      });

      it("sends beta's students to beta's CAS server with beta's service, and signs them in on beta only", async () => {
        const user = 'beta-1';
        cas.signInAs(user, studentAt('beta', user));
        const start = await two.send('beta', 'GET', '/api/sso/start?returnTo=/saved');
        expect(start.statusCode).toBe(303);
        const login = new URL(String(start.headers.location));
        expect(`${login.origin}${login.pathname}`).toBe(`${cas.url}/login`);
        expect(login.searchParams.get('service')).toBe(`${ORIGIN.beta}/api/sso/cas/callback`);
        const back = new URL((await fetch(login, { redirect: 'manual' })).headers.get('location')!);
        expect(back.origin).toBe(ORIGIN.beta);
        const landed = await two.send('beta', 'GET', `${back.pathname}${back.search}`, {
          cookie: cookieOf(start, 'cb_sso_flow'),
        });
        const session = await steps.finish('beta', landed, emailOf(user));
        expect(await steps.rowsOf('beta', emailOf(user))).toEqual(SIGNED_UP);
        expect(await steps.rowsOf('alpha', emailOf(user))).toEqual(NONE);
        const onAlpha = await two.send('alpha', 'GET', '/api/auth/session', { cookie: session });
        expect(onAlpha.json()).toMatchObject({ user: null });
        // Alpha speaks SAML: its CAS callback is no one's.
        const alphaCas = await two.send('alpha', 'GET', `${back.pathname}${back.search}`);
        expect(alphaCas.statusCode).toBe(404);
      });

      it("refuses on beta a CAS ticket issued for alpha's service", async () => {
        const user = 'beta-2';
        cas.signInAs(user, studentAt('beta', user));
        const start = await two.send('beta', 'GET', '/api/sso/start?returnTo=/saved');
        const alphaService = `${ORIGIN.alpha}/api/sso/cas/callback`;
        const issued = await fetch(`${cas.url}/login?service=${encodeURIComponent(alphaService)}`, {
          redirect: 'manual',
        });
        const back = new URL(issued.headers.get('location')!);
        expect(back.origin).toBe(ORIGIN.alpha);
        const ticket = back.searchParams.get('ticket')!;
        const res = await two.send('beta', 'GET', `/api/sso/cas/callback?ticket=${ticket}`, {
          cookie: cookieOf(start, 'cb_sso_flow'),
        });
        expect(res.statusCode).toBe(303);
        expect(res.headers.location).toBe('/sso/problem?reason=failed');
        steps.expectNoSignIn(res);
        expect(await steps.rowsOf('beta', emailOf(user))).toEqual(NONE);
      });
    });

    describe('alpha and beta each their own SP at one SAML IdP', () => {
      let two: TwoCampuses;
      const steps = campusSteps(() => two);

      beforeAll(async () => {
        two = await openTwoCampuses({
          env: { PUBLIC_URL: 'http://installation.example' },
          campusFields: {
            alpha: { sso: samlSection('alpha') },
            beta: { sso: samlSection('beta') },
          },
        });
      }, 120_000);
      afterAll(async () => {
        await two?.close();
      });

      /**
       * A response the IdP issues for `from`'s SP in answer to a sign-on started on `to`'s host:
       * `from`'s AuthnRequest carrying `to`'s request ID and RelayState (requests are unsigned, so
       * anyone can send one), signed in as `login`; with the flow cookie of `to`'s host.
       */
      async function issuedFor(from: CampusKey, to: CampusKey, login: string) {
        const victim = await steps.start(to);
        const asked = requestOf(victim.location);
        const own = requestOf((await steps.start(from)).location);
        own.url.searchParams.set(
          'SAMLRequest',
          deflateRawSync(own.xml.replace(/ ID="[^"]+"/, ` ID="${asked.id}"`)).toString('base64'),
        );
        own.url.searchParams.set('RelayState', asked.relayState);
        const form = await signInAtIdp(own.url.toString(), login);
        expect(form.action).toBe(SP[from].acsUrl);
        expect(form.RelayState).toBe(asked.relayState);
        return { form, cookie: victim.cookie };
      }
      const expectRefused = (res: LightMyRequestResponse) => {
        expect(res.statusCode).toBe(303);
        expect(res.headers.location).toBe('/sso/problem?reason=failed');
        steps.expectNoSignIn(res);
      };

      it("serves each campus's SP metadata with its own host's entity id and ACS", async () => {
        for (const key of CAMPUS_KEYS) {
          const res = await two.send(key, 'GET', '/api/sso/saml/metadata');
          expect(res.statusCode).toBe(200);
          expect(res.body).toContain(`entityID="${SP[key].entityId}"`);
          expect(res.body).toContain(`Location="${SP[key].acsUrl}"`);
          expect(res.body).not.toContain(CAMPUS_HOSTS[other(key)]);
          expect(res.body).not.toContain('installation.example');
          // The AuthnRequest names the same SP and ACS.
          const { xml } = requestOf((await steps.start(key)).location);
          expect(xml).toContain(`AssertionConsumerServiceURL="${SP[key].acsUrl}"`);
          expect(xml).toContain(`>${SP[key].entityId}</saml:Issuer>`);
        }
      });

      it("refuses a campus's valid response at the other's ACS, both ways; its own ACS takes it", async () => {
        for (const key of CAMPUS_KEYS) {
          const login = `${key}-3`;
          const { form, cookie } = await steps.throughIdp(key, login);
          expectRefused(await steps.postAcs(other(key), form, cookie));
          for (const at of CAMPUS_KEYS)
            expect(await steps.rowsOf(at, emailOf(login))).toEqual(NONE);
          await steps.finish(key, await steps.postAcs(key, form, cookie), emailOf(login));
          expect(await steps.rowsOf(key, emailOf(login))).toEqual(SIGNED_UP);
          expect(await steps.rowsOf(other(key), emailOf(login))).toEqual(NONE);
        }
      });

      it("refuses a response for the other campus's SP even in answer to this campus's own request", async () => {
        for (const key of CAMPUS_KEYS) {
          // The control: this campus's own request, sent the same way, is answered and taken.
          const own = await issuedFor(key, key, `${key}-4`);
          await steps.finish(
            key,
            await steps.postAcs(key, own.form, own.cookie),
            emailOf(`${key}-4`),
          );
          // The other campus's SP's response, with this campus's flow, request ID and RelayState:
          // only its audience, destination and recipient (the other campus's) are wrong.
          const login = `${key}-5`;
          const crossed = await issuedFor(other(key), key, login);
          expectRefused(await steps.postAcs(key, crossed.form, crossed.cookie));
          for (const at of CAMPUS_KEYS)
            expect(await steps.rowsOf(at, emailOf(login))).toEqual(NONE);
        }
      });
    });
  },
);
