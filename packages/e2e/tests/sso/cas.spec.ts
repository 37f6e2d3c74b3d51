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
 * Single sign-on with CAS 3.0 in Chromium, against a STAND-IN that follows the CAS 3.0 protocol
 * specification (server/test/support/cas-stand-in.ts; no CAS server is packaged here): its login
 * form, its single sign-on session, `/p3/serviceValidate` with attributes. The first sign-in asks
 * only for the GroupMe link and lands where the student was going, a later one is one click, and
 * an affiliation the campus does not admit gets a clear page. One app server and one stand-in per
 * worker (project).
 */
const person = (id: string, affiliation: string) => ({
  mail: [`${id}@richmond.edu`],
  givenName: ['Casey'],
  sn: ['Casson'],
  eduPersonScopedAffiliation: [affiliation],
});
const ACCOUNTS = {
  casey: person('casey', 'student@richmond.edu'),
  alum: person('alum', 'alum@richmond.edu'),
};

const test = base.extend<object, { campus: OwnServer }>({
  campus: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
    async ({}, use) => {
      const server = await ownServer();
      const cas = await startSupportProcess<{ url: string }>('cas-stand-in.cli.ts', ACCOUNTS);
      try {
        await server.start({ ...SSO_CAMPUS_ENV, SSO_PROTOCOL: 'cas', CAS_BASE_URL: cas.ready.url });
        await use(server);
      } finally {
        await server.dispose();
        await cas.stop();
      }
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ campus }, use) => use(campus.url),
});

/** The stand-in's login form (every account's password is `password`). */
async function signInAtCas(page: Page, id: string) {
  await expect(page.getByRole('heading', { name: /Central Authentication Service/ })).toBeVisible();
  await page.getByLabel('Username').fill(id);
  await page.getByLabel('Password').fill('password');
  await page.getByRole('button', { name: 'Log in' }).click();
}

test('CAS 3.0 stand-in (follows the CAS 3.0 specification; no CAS server is packaged): a student signs up, lands where they were going, then signs in with one click', async ({
  page,
  campus,
}, testInfo) => {
  await test.step('the sign-in page leads with the campus sign-on, to the CAS login form', async () => {
    await startSignOnFromSaved(page, testInfo, 'cas-sign-in');
    await signInAtCas(page, 'casey');
  });

  await test.step('the one question CAS did not answer, then where they were going', async () => {
    await finishFirstSignOn(page, 'casey@richmond.edu', testInfo, 'cas-finish');
    await expectSignedInOnSaved(page, 'casey@richmond.edu');
  });

  await test.step('signed out, the next sign-in is one click (the CAS session remembers them)', async () => {
    await signOut(page);
    const shown = recordPagesShown(page);
    await startSignOnFromSaved(page, testInfo);
    await expectSignedInOnSaved(page, 'casey@richmond.edu');
    // CAS redirected straight back with a ticket: none of its pages was shown.
    expect(shown.filter((url) => !url.startsWith(campus.url))).toEqual([]);
  });
});

test('CAS 3.0 stand-in (follows the CAS 3.0 specification; no CAS server is packaged): an affiliation the campus does not admit gets the clear refusal page', async ({
  page,
}, testInfo) => {
  await startSignOnFromSaved(page, testInfo);
  await signInAtCas(page, 'alum');
  await expectNotAdmitted(page, testInfo, 'cas-not-admitted');
});
