import { existsSync } from 'node:fs';
import { expect, test as base, type Page } from '@playwright/test';
import { ownServer, type OwnServer } from '../../src/own-server';
import {
  expectNotAdmitted,
  expectSignedInOnSaved,
  finishFirstSignOn,
  recordPagesShown,
  signOut,
  SSO_CAMPUS_ENV,
  startSignOnFromSaved,
} from '../../src/sso-journey';
import { startSupportProcess } from '../../src/support-process';

/**
 * Single sign-on with SAML 2.0 in Chromium, against SimpleSAMLphp from Debian's packages (a real
 * IdP that universities run; server/test/support/simplesamlphp.ts starts it): the student signs in
 * on SimpleSAMLphp's own form, the first sign-in asks only for the GroupMe link and lands where
 * they were going, a later one is one click, and an affiliation the campus does not admit gets a
 * clear page. One app server and one IdP per worker (project).
 */
const person = (login: string, affiliation: string) => ({
  mail: [`${login}@richmond.edu`],
  givenName: ['Sam'],
  sn: ['Samlson'],
  eduPersonPrincipalName: [`${login}@richmond.edu`],
  eduPersonScopedAffiliation: [affiliation, 'member@richmond.edu'],
});
const USERS = {
  sam: person('sam', 'student@richmond.edu'),
  alum: person('alum', 'alum@richmond.edu'),
};
const INSTALLED = existsSync('/usr/share/simplesamlphp/www') && existsSync('/usr/bin/php');

interface Idp {
  url: string;
  entityId: string;
  ssoUrl: string;
  certFile: string;
}

const test = base.extend<object, { campus: OwnServer }>({
  campus: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
    async ({}, use) => {
      const server = await ownServer();
      const idp = await startSupportProcess<Idp>('simplesamlphp.cli.ts', {
        sp: {
          entityId: `${server.url}/api/sso/saml/metadata`,
          acsUrl: `${server.url}/api/sso/saml/acs`,
        },
        users: USERS,
      });
      try {
        await server.start({
          ...SSO_CAMPUS_ENV,
          SSO_PROTOCOL: 'saml',
          SAML_IDP_SSO_URL: idp.ready.ssoUrl,
          SAML_IDP_ENTITY_ID: idp.ready.entityId,
          SAML_IDP_CERT_FILE: idp.ready.certFile,
        });
        await use(server);
      } finally {
        await server.dispose();
        await idp.stop();
      }
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ campus }, use) => use(campus.url),
});

// CI installs SimpleSAMLphp (.ci/run): there it must run, never skip.
test.skip(
  !INSTALLED && !process.env.CI,
  'SKIPPED: SimpleSAMLphp is not installed (apt-get install simplesamlphp php-cli)',
);

/** SimpleSAMLphp's own login form (exampleauth:UserPass; every test user's password is `password`). */
async function signInAtSimpleSamlPhp(page: Page, login: string) {
  await expect(page.getByLabel('Username')).toBeVisible();
  await page.getByLabel('Username').fill(login);
  await page.getByLabel('Password').fill('password');
  await page.getByRole('button', { name: 'Login' }).click();
}

test('SAML: a student signs up on SimpleSAMLphp, lands where they were going, then signs in with one click', async ({
  page,
  campus,
}, testInfo) => {
  await test.step("the sign-in page leads with the campus sign-on, to SimpleSAMLphp's form", async () => {
    await startSignOnFromSaved(page, testInfo, 'saml-sign-in');
    await expect(page).toHaveURL((url) => !url.href.startsWith(campus.url));
    await signInAtSimpleSamlPhp(page, 'sam');
  });

  await test.step('the one question the IdP did not answer, then where they were going', async () => {
    await finishFirstSignOn(page, 'sam@richmond.edu', testInfo, 'saml-finish');
    await expectSignedInOnSaved(page, 'sam@richmond.edu');
  });

  await test.step('signed out, the next sign-in is one click (the IdP remembers them)', async () => {
    await signOut(page);
    const shown = recordPagesShown(page);
    await startSignOnFromSaved(page, testInfo);
    await expectSignedInOnSaved(page, 'sam@richmond.edu');
    // Only SimpleSAMLphp's page that posts the response back passed by: never its login form.
    expect(shown.filter((url) => url.includes('loginuserpass'))).toEqual([]);
  });
});

test('SAML: an affiliation the campus does not admit gets the clear refusal page', async ({
  page,
}, testInfo) => {
  await startSignOnFromSaved(page, testInfo);
  await signInAtSimpleSamlPhp(page, 'alum');
  await expectNotAdmitted(page, testInfo, 'saml-not-admitted');
});
