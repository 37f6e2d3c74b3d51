import { expect, type Page, type TestInfo } from '@playwright/test';
import { callRoute, dataOf } from '@campus-books/common/call-route';
import { requestInjector } from './api';
import { expectNoAxeViolations, screenshot } from './page-check';

/** The campus of the sign-on journeys (tests/sso): its name on the button, its e-mail domain. */
export const SSO_CAMPUS = { name: 'University of Richmond', domain: 'richmond.edu' };
/** The settings every sign-on journey's own server starts with, beside its protocol's. */
export const SSO_CAMPUS_ENV = {
  SCHOOL_EMAIL_DOMAIN: SSO_CAMPUS.domain,
  SSO_NAME: SSO_CAMPUS.name,
  SSO_ADMIT_AFFILIATIONS: `student@${SSO_CAMPUS.domain}`,
};

export const signOnLink = (page: Page) =>
  page.getByRole('link', { name: `Sign in with ${SSO_CAMPUS.name}` });

/**
 * A signed-out student opens their saved listings, is sent to the sign-in page (ours: checked with
 * axe), and presses "Sign in with <University>": the provider's page is next.
 */
export async function startSignOnFromSaved(page: Page, testInfo: TestInfo, shot?: string) {
  await page.goto('/saved');
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=/);
  await expect(signOnLink(page)).toBeVisible();
  if (shot) {
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, shot);
  }
  await signOnLink(page).click();
}

/** A first sign-on's one question (ours: checked with axe): the GroupMe link, then the account. */
export async function finishFirstSignOn(
  page: Page,
  email: string,
  testInfo: TestInfo,
  shot: string,
) {
  await expect(page.getByRole('heading', { name: 'Finish signing in' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, testInfo, shot);
  await page.getByLabel('GroupMe link').fill('https://groupme.com/contact/123');
  await page.getByRole('button', { name: 'Create my account' }).click();
}

/** Our session as the page's cookies hold it (GET /api/auth/session, typed by the route table). */
async function sessionOf(page: Page) {
  return dataOf(await callRoute(requestInjector(page.request), 'GET /api/auth/session'));
}

/** Back on their saved listings, and signed in on our side as `email` (our session, not the provider's). */
export async function expectSignedInOnSaved(page: Page, email: string) {
  await expect(page).toHaveURL(/\/saved$/);
  await expect(page.getByRole('heading', { name: 'Saved listings' })).toBeVisible();
  expect((await sessionOf(page)).user?.email).toBe(email);
}

/** Every page the tab shows from now on (committed navigations; a redirect passed through is not). */
export function recordPagesShown(page: Page): string[] {
  const shown: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) shown.push(frame.url());
  });
  return shown;
}

/** Our sign-out (the provider's session stays: the next sign-on asks nothing). */
export async function signOut(page: Page) {
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Sign out' }).click();
  // The app goes home first and signs out once home has replaced the profile: wait for that answer.
  const signedOut = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/auth/signout',
  );
  await page.getByRole('button', { name: 'Yes, sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await signedOut).ok()).toBe(true);
  expect((await sessionOf(page)).user).toBeNull();
}

/** The page for someone the provider signed in but the campus does not admit (ours: axe), and no session. */
export async function expectNotAdmitted(page: Page, testInfo: TestInfo, shot: string) {
  await expect(page).toHaveURL(/\/sso\/problem\?reason=not-admitted$/);
  await expect(page.getByRole('heading', { name: 'Not admitted' })).toBeVisible();
  await expect(page.getByText(/open only to the campus members it admits/)).toBeVisible();
  await expect(page.getByText('! Error !')).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshot(page, testInfo, shot);
  expect((await sessionOf(page)).user).toBeNull();
}
