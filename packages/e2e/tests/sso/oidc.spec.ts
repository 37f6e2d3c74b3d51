import { randomUUID } from 'node:crypto';
import { expect, test as base } from '@playwright/test';
import { ownServer, type OwnServer } from '../../src/own-server';
import { expectNoAxeViolations, screenshot } from '../../src/page-check';
import { signOut } from '../../src/sso-journey';
import {
  startOidcProviderProcess,
  type TestOidcProviderProcess,
} from '../../src/test-oidc-provider';

/**
 * Single sign-on with OpenID Connect in Chromium, against a real OpenID provider (oidc-provider)
 * this spec starts: the first sign-in creates the account and asks only for the GroupMe link, a
 * later one is one click, and someone the campus does not admit (or whose sign-in fails its
 * checks) gets a clear page.
 */
const test = base.extend<{ server: OwnServer; idp: TestOidcProviderProcess }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
  server: async ({}, use) => {
    const server = await ownServer();
    try {
      await use(server);
    } finally {
      await server.dispose();
    }
  },
  idp: async ({ server }, use) => {
    const idp = await startOidcProviderProcess(`${server.url}/api/sso/oidc/callback`);
    try {
      await server.start({
        SCHOOL_EMAIL_DOMAIN: 'richmond.edu',
        SSO_PROTOCOL: 'oidc',
        SSO_NAME: 'University of Richmond',
        SSO_ADMIT_AFFILIATIONS: 'student@richmond.edu',
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
        OIDC_SCOPES: 'openid email profile eduperson',
      });
      await use(idp);
    } finally {
      await idp.stop();
    }
  },
  baseURL: async ({ server }, use) => use(server.url),
});

test('OIDC: a student signs up with the campus sign-on, then signs in with one click', async ({
  page,
  idp,
}, testInfo) => {
  test.setTimeout(120_000);
  const login = `ada-${randomUUID().slice(0, 8)}`;
  await idp.addAccounts({
    [login]: {
      email: `${login}@richmond.edu`,
      email_verified: true,
      given_name: 'Ada',
      family_name: 'Byron',
      eduperson_scoped_affiliation: ['student@richmond.edu'],
    },
  });
  const signOn = page.getByRole('link', { name: 'Sign in with University of Richmond' });

  await test.step('the sign-in page leads with the campus sign-on', async () => {
    await page.goto('/sign-in?redirectTo=/saved');
    await expect(signOn).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, 'sso-sign-in');
    await signOn.click();
  });

  await test.step('at the provider, then the one question the provider did not answer', async () => {
    await page.getByLabel('Login').fill(login);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Finish signing in' })).toBeVisible();
    await expect(page.getByText(`${login}@richmond.edu`)).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, 'sso-finish');
    await page.getByLabel('GroupMe link').fill('https://groupme.com/contact/123');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await expect(page).toHaveURL(/\/saved$/);
  });

  await test.step('signed out, the next sign-in is one click (the provider remembers)', async () => {
    await signOut(page);
    await page.goto('/sign-up');
    await expect(page.getByRole('button', { name: /coming soon/ })).toHaveCount(0);
    await signOn.click();
    await expect(page).toHaveURL(/\/$/);
    const session = await page.request.get('/api/auth/session');
    expect((await session.json()).user.email).toBe(`${login}@richmond.edu`);
  });
});

test('OIDC: someone the provider signs in but the campus does not admit gets a clear page', async ({
  page,
  idp,
}, testInfo) => {
  const login = `alum-${randomUUID().slice(0, 8)}`;
  await idp.addAccounts({
    [login]: {
      email: `${login}@richmond.edu`,
      email_verified: true,
      given_name: 'Al',
      family_name: 'Umnus',
      eduperson_scoped_affiliation: ['alum@richmond.edu'],
    },
  });
  await page.goto('/sign-in');
  await page.getByRole('link', { name: 'Sign in with University of Richmond' }).click();
  await page.getByLabel('Login').fill(login);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Not admitted' })).toBeVisible();
  await expect(page.getByText('! Error !')).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshot(page, testInfo, 'sso-not-admitted');
  const session = await page.request.get('/api/auth/session');
  expect((await session.json()).user).toBeNull();

  // A callback that fails its checks (here: no flow of this browser's) says so in plain words.
  await page.goto('/api/sso/oidc/callback?code=forged&state=forged');
  await expect(page).toHaveURL(/\/sso\/problem\?reason=failed$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign-in did not work' })).toBeVisible();
  await expect(page.getByText('! Error !')).toHaveCount(0);
  await expect(
    page.getByRole('link', { name: 'Try signing in with University of Richmond again' }),
  ).toBeVisible();
  await expectNoAxeViolations(page);
});
