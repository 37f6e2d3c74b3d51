import { test as base, expect, type Page } from '@playwright/test';
import { Api } from './api';
import { createUser, deleteUser, type Student, type TestUser } from './users';

export interface Fixtures {
  /** Makes a verified, signed-in (API) user; every one is deleted after the test. */
  makeUser(label?: string): Promise<TestUser>;
  /**
   * Takes charge of an account a test created through the UI: signs an API session in (once it is
   * verified) so the account can be deleted after the test.
   */
  adoptUser(student: Student): Promise<TestUser>;
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
  makeUser: async ({}, use) => {
    const made: TestUser[] = [];
    await use(async (label) => {
      const user = await createUser(label);
      made.push(user);
      return user;
    });
    for (const user of made) await deleteUser(user);
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
  adoptUser: async ({}, use) => {
    const adopted: TestUser[] = [];
    await use(async (student) => {
      const api = await Api.open();
      const me = await api.signIn(student.email, student.password);
      const user = { ...student, id: me._id, api };
      adopted.push(user);
      return user;
    });
    for (const user of adopted) await deleteUser(user);
  },
});

export { expect };

/**
 * Signs the page's browser in as `user` with a session of its own (the browser context's request
 * shares its cookie jar), then opens `path`.
 */
export async function signInBrowser(page: Page, user: TestUser, path = '/'): Promise<void> {
  const response = await page.request.post('/api/auth/signin', {
    data: { email: user.email, password: user.password },
  });
  expect(response.ok(), await response.text()).toBe(true);
  await page.goto(path);
}

export const isPhone = (page: Page) => (page.viewportSize()?.width ?? 1280) < 768;

/** Opens the header menu on a phone (it collapses behind a toggle); a no-op on wide screens. */
export async function openMenu(page: Page): Promise<void> {
  if (!isPhone(page)) return;
  const toggle = page.getByRole('button', { name: 'Menu' });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}
