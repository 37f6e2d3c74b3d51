import { validate } from '@readme/openapi-parser';
import type { LightMyRequestResponse } from 'fastify';
import type { Element } from '@xmldom/xmldom';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { GENEROUS_LIMITS, get, post } from '../../../test/accounts';
import {
  hasSimpleSamlPhp,
  readPem,
  signInAtIdp,
  startSimpleSamlPhp,
  type TestIdp,
} from '../../../test/support/simplesamlphp';
import {
  decodeResponse,
  editAssertion,
  encodeResponse,
  setOn,
  signAssertion,
  stripSignature,
} from '../../../test/support/saml-forgery';

const PUBLIC_URL = 'http://campus.test';
const ACS = `${PUBLIC_URL}/api/sso/saml/acs`;
const person = (login: string, mail: string, affiliation = 'student@richmond.edu') => ({
  mail: [mail],
  givenName: ['Sam'],
  sn: [`Student ${login}`],
  eduPersonPrincipalName: [`${login}@richmond.edu`],
  eduPersonScopedAffiliation: [affiliation, 'member@richmond.edu'],
});
const USERS = {
  sam: person('sam', 'sam@richmond.edu'),
  kim: person('kim', 'kim@richmond.edu'),
  lee: person('lee', 'lee@richmond.edu'),
  alum: person('alum', 'alum@richmond.edu', 'alum@richmond.edu'),
  outsider: person('outsider', 'outsider@gmail.com'),
};

let t: TestApp;
let idp: TestIdp;

describe.skipIf(!hasSimpleSamlPhp())(
  'SAML 2.0 sign-on against SimpleSAMLphp (Debian package)',
  () => {
    beforeAll(async () => {
      idp = await startSimpleSamlPhp(
        { entityId: `${PUBLIC_URL}/api/sso/saml/metadata`, acsUrl: ACS },
        USERS,
      );
      t = await createTestApp({
        ...GENEROUS_LIMITS,
        PUBLIC_URL,
        SCHOOL_EMAIL_DOMAIN: 'richmond.edu',
        SSO_PROTOCOL: 'saml',
        SSO_NAME: 'University of Richmond',
        SSO_ADMIT_AFFILIATIONS: 'student@richmond.edu',
        SAML_IDP_SSO_URL: idp.ssoUrl,
        SAML_IDP_ENTITY_ID: idp.entityId,
        SAML_IDP_CERT_FILE: idp.certFile,
      });
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      await idp?.close();
    });

    const cookieOf = (res: LightMyRequestResponse, name: string) => {
      const c = res.cookies.find((x) => x.name === name);
      return c?.value ? `${name}=${c.value}` : '';
    };
    const userCount = async () =>
      Number((await t.database.db.select({ n: sql<number>`count(*)` }).from(users))[0]!.n);

    /** A flow started here and answered by the IdP: the form to post, and the flow's cookie. */
    async function throughIdp(login: string) {
      const start = await get(t, '/api/sso/start?returnTo=/saved');
      expect(start.statusCode).toBe(303);
      const form = await signInAtIdp(String(start.headers.location), login);
      expect(form.action).toBe(ACS);
      return { ...form, cookie: cookieOf(start, 'cb_sso_flow') };
    }
    const postAcs = (form: { SAMLResponse: string; RelayState: string }, cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/sso/saml/acs',
        headers: {
          cookie,
          'content-type': 'application/x-www-form-urlencoded',
          origin: new URL(idp.url).origin,
          'sec-fetch-site': 'cross-site',
        },
        payload: new URLSearchParams(form).toString(),
      });
    function expectRefused(res: LightMyRequestResponse, reason = 'failed') {
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/sso/problem?reason=${reason}`);
      expect(res.cookies.find((c) => c.name === 'cb_session')).toBeUndefined();
      expect(res.cookies.find((c) => c.name === 'cb_sso_pending' && c.value)).toBeUndefined();
    }
    const key = () => readPem(idp.keyFile);
    const cert = () => readPem(idp.certFile);
    /** The form with its assertion edited and signed again with the IdP's own key. */
    const resigned = (form: { SAMLResponse: string }, edit: (a: Element) => void) =>
      encodeResponse(
        signAssertion(
          editAssertion(decodeResponse(form.SAMLResponse), (a) => {
            stripSignature(a);
            edit(a);
          }),
          key(),
          cert(),
        ),
      );

    it('serves SP metadata for the campus IdP to register', async () => {
      const res = await get(t, '/api/sso/saml/metadata');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
      expect(res.body).toContain(`entityID="${PUBLIC_URL}/api/sso/saml/metadata"`);
      expect(res.body).toContain(`Location="${ACS}"`);
      const document = (await get(t, '/api/openapi.json')).json();
      const result = await validate(structuredClone(document));
      expect(result.valid ? [] : result.errors).toEqual([]);
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining(['/api/sso/saml/acs', '/api/sso/saml/metadata']),
      );
    });

    it('creates the account from the released attributes, then signs in with one click', async () => {
      const form = await throughIdp('sam');
      const res = await postAcs(form, form.cookie);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/sso/finish');
      const pending = cookieOf(res, 'cb_sso_pending');
      expect((await get(t, '/api/sso/pending', pending)).json()).toMatchObject({
        email: 'sam@richmond.edu',
        firstName: 'Sam',
        lastName: 'Student sam',
      });
      const done = await post(
        t,
        '/api/sso/finish',
        { groupmelink: 'https://groupme.com/contact/7' },
        pending,
      );
      expect(done.statusCode).toBe(201);
      const again = await throughIdp('sam');
      const later = await postAcs(again, again.cookie);
      expect(later.headers.location).toBe('/saved');
      expect(later.cookies.some((c) => c.name === 'cb_session' && c.value)).toBe(true);
    });

    describe('hostile responses are refused, with no account created or signed in', () => {
      it('a replayed response', async () => {
        const form = await throughIdp('kim');
        expect((await postAcs(form, form.cookie)).headers.location).toBe('/sso/finish');
        expectRefused(await postAcs(form, form.cookie));
      });

      it('a response without the flow that asked for it, or with another RelayState', async () => {
        const form = await throughIdp('kim');
        expectRefused(await postAcs(form, ''));
        expectRefused(await postAcs({ ...form, RelayState: 'another' }, form.cookie));
      });

      it('an unsigned assertion, and a signed one changed afterwards', async () => {
        const count = await userCount();
        const unsigned = await throughIdp('lee');
        const stripped = editAssertion(decodeResponse(unsigned.SAMLResponse), stripSignature);
        expectRefused(
          await postAcs({ ...unsigned, SAMLResponse: encodeResponse(stripped) }, unsigned.cookie),
        );
        const changed = await throughIdp('lee');
        const xml = decodeResponse(changed.SAMLResponse).replace(
          /lee@richmond\.edu/g,
          'sam@richmond.edu',
        );
        expectRefused(
          await postAcs({ ...changed, SAMLResponse: encodeResponse(xml) }, changed.cookie),
        );
        expect(await userCount()).toBe(count);
      });

      it('an assertion signed by another key', async () => {
        const form = await throughIdp('lee');
        const { generateKeyPairSync } = await import('node:crypto');
        const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
        const forged = signAssertion(
          editAssertion(decodeResponse(form.SAMLResponse), stripSignature),
          other.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          cert(),
        );
        expectRefused(
          await postAcs({ ...form, SAMLResponse: encodeResponse(forged) }, form.cookie),
        );
      });

      it('XML signature wrapping: a forged assertion beside or around the signed one', async () => {
        const form = await throughIdp('lee');
        const xml = decodeResponse(form.SAMLResponse);
        const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
        const forged = signed
          .replace(/ID="[^"]+"/, 'ID="_forged"')
          .replace(/lee@richmond\.edu/g, 'sam@richmond.edu')
          .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '');
        // The forged one first, the signed one kept (beside, then hidden in an Extensions element).
        const beside = xml.replace(signed, `${forged}${signed}`);
        const wrapped = xml.replace(
          signed,
          `<samlp:Extensions>${signed}</samlp:Extensions>${forged}`,
        );
        for (const attack of [beside, wrapped]) {
          const fresh = await throughIdp('lee');
          const body = attack.replace(
            /InResponseTo="[^"]+"/g,
            /InResponseTo="[^"]+"/.exec(decodeResponse(fresh.SAMLResponse))![0],
          );
          expectRefused(
            await postAcs({ ...fresh, SAMLResponse: encodeResponse(body) }, fresh.cookie),
          );
        }
      });

      it('re-signed with the IdP key: accepted as it is, refused with a wrong audience, recipient or time', async () => {
        // The control: the same assertion signed again unchanged is taken.
        const control = await throughIdp('lee');
        const ok = await postAcs(
          { ...control, SAMLResponse: resigned(control, () => undefined) },
          control.cookie,
        );
        expect(ok.headers.location).toBe('/sso/finish');
        const past = new Date(Date.now() - 3600_000).toISOString();
        const future = new Date(Date.now() + 3600_000).toISOString();
        for (const edit of [
          (a: Element) =>
            (a.getElementsByTagNameNS(
              'urn:oasis:names:tc:SAML:2.0:assertion',
              'Audience',
            )[0]!.textContent = 'https://other.example/sp'),
          (a: Element) =>
            setOn(a, 'SubjectConfirmationData', 'Recipient', 'https://other.example/acs'),
          (a: Element) => {
            setOn(a, 'Conditions', 'NotOnOrAfter', past);
            setOn(a, 'SubjectConfirmationData', 'NotOnOrAfter', past);
          },
          (a: Element) => setOn(a, 'Conditions', 'NotBefore', future),
        ]) {
          const form = await throughIdp('lee');
          expectRefused(
            await postAcs({ ...form, SAMLResponse: resigned(form, edit) }, form.cookie),
          );
        }
      });

      it('signed with the IdP key, but sent to another destination or issued by another entity', async () => {
        const count = await userCount();
        const other = 'https://other-idp.example/saml2/idp/metadata.php';
        const response = (a: Element) => a.ownerDocument!.documentElement!;
        const issuerOf = (el: Element) =>
          Array.from(el.childNodes).find(
            (n): n is Element => (n as Element).localName === 'Issuer',
          )!;
        for (const edit of [
          // SAML core 3.2.2: a response whose Destination is not where it was received is discarded.
          (a: Element) => response(a).setAttribute('Destination', 'https://other.example/acs'),
          // The assertion's (signed) issuer, and the response's, must be the configured IdP.
          (a: Element) => (issuerOf(a).textContent = other),
          (a: Element) => (issuerOf(response(a)).textContent = other),
        ]) {
          const form = await throughIdp('lee');
          expectRefused(
            await postAcs({ ...form, SAMLResponse: resigned(form, edit) }, form.cookie),
          );
        }
        expect(await userCount()).toBe(count);
      });

      it('a response carrying a document type declaration (no DTD is accepted)', async () => {
        const count = await userCount();
        for (const doctype of [
          '<!DOCTYPE samlp:Response>',
          '<!DOCTYPE samlp:Response [<!ENTITY who "lee">]>',
        ]) {
          const form = await throughIdp('lee');
          const xml = decodeResponse(form.SAMLResponse);
          const withDtd = /^<\?xml[^>]*\?>/.test(xml)
            ? xml.replace(/^(<\?xml[^>]*\?>)/, `$1${doctype}`)
            : `${doctype}${xml}`;
          expectRefused(
            await postAcs({ ...form, SAMLResponse: encodeResponse(withDtd) }, form.cookie),
          );
        }
        expect(await userCount()).toBe(count);
      });

      it('an address outside the campus domain, and an affiliation the campus does not admit', async () => {
        const count = await userCount();
        const outsider = await throughIdp('outsider');
        expectRefused(await postAcs(outsider, outsider.cookie), 'outside-domain');
        const alum = await throughIdp('alum');
        expectRefused(await postAcs(alum, alum.cookie), 'not-admitted');
        expect(await userCount()).toBe(count);
      });

      it('a response posted 25 times at once signs in at most once', async () => {
        const form = await throughIdp('sam');
        const answers = await Promise.all(
          Array.from({ length: 25 }, () => postAcs(form, form.cookie)),
        );
        expect(
          answers.filter((r) => r.cookies.some((c) => c.name === 'cb_session' && c.value)),
        ).toHaveLength(1);
        expect(
          answers.filter((r) => r.headers.location === '/sso/problem?reason=failed'),
        ).toHaveLength(24);
      });
    });
  },
);
