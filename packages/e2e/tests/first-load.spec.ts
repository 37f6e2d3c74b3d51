import type { Listing } from '@campus-books/common/listing.schemas';
import type { Locator, Page } from '@playwright/test';
import { expect, signInBrowser, test as base } from '../src/fixtures';
import { settle } from '../src/page-check';
import { createListing, createUser, deleteUser } from '../src/users';

/** One seller's listing (with a photo) for the whole file, per project. */
const test = base.extend<object, { listing: Listing }>({
  listing: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
    async ({}, use) => {
      const seller = await createUser('firstload');
      await use(await createListing(seller, { name: 'first load physics', courseNumber: '150' }));
      await deleteUser(seller);
    },
    { scope: 'worker' },
  ],
});

declare global {
  interface Window {
    /** Sum of the page's layout shifts (the browser's own measure of content moving). */
    layoutShift: number;
  }
}

/** Records every failed response and console error, and adds up layout shifts from the start. */
async function watchFirstLoad(page: Page) {
  const problems: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  await page.addInitScript(() => {
    window.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!entry.hadRecentInput) window.layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return problems;
}

/**
 * Holds the listing answers back a little, as a phone's network would: the page paints its loading
 * state first, so what happens when the listings arrive is seen (a local server answers too soon).
 */
async function slowListingAnswers(page: Page) {
  await page.route('**/api/listing/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await route.continue();
  });
}

/** Every card's cover has arrived (so a late image could not have moved anything unseen). */
async function imagesLoaded(page: Page) {
  await expect
    .poll(() => page.evaluate(() => [...document.images].every((image) => image.complete)))
    .toBe(true);
}

const PAGES: { name: string; path(listing: Listing): string; ready(page: Page): Locator }[] = [
  {
    name: 'home',
    path: () => '/',
    ready: (p) => p.getByRole('region', { name: 'Recent Additions' }).getByRole('listitem'),
  },
  {
    name: 'search',
    path: () => '/search',
    ready: (p) => p.getByRole('region', { name: 'Listing results' }).getByRole('listitem'),
  },
  {
    name: 'listing',
    path: (listing) => `/listing/${listing._id}`,
    ready: (p) => p.getByRole('link', { name: 'Sign In to Contact Seller' }),
  },
];

test.describe('the pages visitors land on, first load', () => {
  for (const pageCase of PAGES) {
    test(`${pageCase.name}: no failed request or console error, and nothing moves`, async ({
      page,
      listing,
    }) => {
      const problems = await watchFirstLoad(page);
      await slowListingAnswers(page);
      await page.goto(pageCase.path(listing));
      await settle(page, pageCase.ready);
      await imagesLoaded(page);
      expect(problems).toEqual([]);
      expect(await page.evaluate(() => window.layoutShift)).toBeLessThan(0.02);
    });
  }

  test('a session set by the cookie alone is found on load', async ({ page, makeUser }) => {
    const user = await makeUser('cookieonly');
    const problems = await watchFirstLoad(page);
    // Only the cookie is set: the page must ask the server who is signed in.
    await signInBrowser(page, user, '/create-listing');
    await expect(page.getByRole('heading', { level: 1, name: 'Create a Listing' })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('a stored user whose session has ended is signed out without an error', async ({
    page,
    makeUser,
  }) => {
    const user = await makeUser('ended');
    await signInBrowser(page, user, '/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The session ends elsewhere (e.g. a password reset): only the copy in the browser is left.
    // The signed-in page is left first, so none of its own late requests (the unread count) is
    // counted against the next page's first load.
    await page.goto('about:blank');
    await page.context().clearCookies();
    const problems = await watchFirstLoad(page);
    await page.goto('/about');
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('campus-books:session')))
      .toBeNull();
    expect(problems).toEqual([]);
  });
});
