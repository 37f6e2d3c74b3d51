import type { Browser, Page } from '@playwright/test';
import { recordEventStreams } from './event-streams';
import { signInBrowser, test } from './fixtures';
import type { TestUser } from './users';

/**
 * Journeys with two browsers at once (a buyer's phone and a seller's laptop) in one test: they open
 * their own contexts, so they run once, from the laptop project. Call at the top of the spec.
 */
export function runOnceFromLaptop() {
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
  test.beforeEach(({}, testInfo) => {
    test.skip(testInfo.project.name !== 'laptop', 'the journey opens its own phone and laptop');
  });
}

/** A signed-in browser of its own (cookies, streams), as a phone (375 px) or a laptop (1280 px). */
export async function openBrowser(
  browser: Browser,
  user: TestUser,
  width: 375 | 1280,
  path: string,
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    viewport: { width, height: 800 },
    isMobile: width === 375,
    hasTouch: width === 375,
  });
  const page = await context.newPage();
  await recordEventStreams(page);
  await signInBrowser(page, user, path);
  return page;
}

/** A conversation's thread, as the screen reader names it. */
export const messagesLog = (page: Page) => page.getByRole('log', { name: 'Messages' });
