import { formatDays, formatMinutes } from '@campus-books/common/durations';
import { EXPORT_LINK_DAYS } from '@campus-books/common/privacy';
import type { Listing } from '@campus-books/common/listing.schemas';
import { callRoute, dataOf } from '@campus-books/common/call-route';
import type { Page } from '@playwright/test';
import { expect, signInBrowser, test as base } from '../src/fixtures';
import { requestInjector } from '../src/api';
import { createListing, createUser, deleteUser, type TestUser } from '../src/users';

// The landing pages are rendered on the server (docs/decisions/012-server-rendering.md): their HTML
// holds the data before any script runs, and the browser takes the page over without a change.

/** A book of its own (a valid ISBN no other test lists). */
const ISBN = '9781558608320';

/**
 * One seller's listing in a course of its own, and another copy of its book, for the whole file,
 * per project.
 */
const test = base.extend<object, { seller: TestUser; listing: Listing; otherCopy: Listing }>({
  seller: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
    async ({}, use) => {
      const seller = await createUser('ssrseller');
      await use(seller);
      await deleteUser(seller);
    },
    { scope: 'worker' },
  ],
  listing: [
    async ({ seller }, use) => {
      await use(
        await createListing(seller, {
          name: `rendered geology ${Date.now().toString(36)}`,
          subject: 'ECON',
          courseNumber: '377',
          regularPrice: 31,
          isbn: ISBN,
        }),
      );
    },
    { scope: 'worker' },
  ],
  otherCopy: [
    async ({ seller }, use) => {
      await use(
        await createListing(seller, {
          name: `second copy ${Date.now().toString(36)}`,
          subject: 'ECON',
          courseNumber: '378',
          regularPrice: 27,
          isbn: ISBN,
        }),
      );
    },
    { scope: 'worker' },
  ],
});

const PAGES: { name: string; path(listing: Listing): string }[] = [
  { name: 'home', path: () => '/' },
  {
    name: 'search',
    path: (listing) =>
      `/search?searchTerm=${encodeURIComponent(listing.name)}&status=active_or_none`,
  },
  { name: 'listing', path: (listing) => `/listing/${listing._id}` },
  { name: 'course', path: () => '/course/ECON-377' },
];

/** The API calls a page makes, by path (images left out: they are not the page's data). */
function watchApiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') && !url.pathname.startsWith('/api/images/')) {
      calls.push(url.pathname);
    }
  });
  return calls;
}

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  for (const { name, path } of PAGES) {
    test(`the ${name} page's HTML shows the listing before any script runs`, async ({
      page,
      listing,
    }) => {
      const response = await page.goto(path(listing));
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('main').getByText(listing.name).first()).toBeVisible();
      await expect(page.getByRole('main').getByText('$31').first()).toBeVisible();
    });
  }

  test('the policy pages read whole: /about, and /privacy with the periods this server keeps', async ({
    page,
    request,
  }) => {
    const about = await page.goto('/about');
    expect(about?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: /^About / })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Who runs it' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText('student volunteers');
    await expect(page).toHaveTitle(/^About/);

    const { outboxDays, attemptWindowMinutes } = dataOf(
      await callRoute(requestInjector(request), 'GET /api/privacy'),
    );
    const privacy = await page.goto('/privacy');
    expect(privacy?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'What we keep and why' })).toBeVisible();
    // The server's own period, not the words the page shows before its data arrives.
    await expect(page.getByRole('main')).toContainText(`${outboxDays} days, then removed`);
    await expect(page.getByRole('main')).toContainText(
      `counters for their window (${formatMinutes(attemptWindowMinutes)})`,
    );
    await expect(page.getByRole('main')).toContainText(
      `It works for ${formatDays(EXPORT_LINK_DAYS)}, only while you are signed in`,
    );
  });

  test("a listing's other copies are in its HTML", async ({ page, listing, otherCopy }) => {
    await page.goto(`/listing/${listing._id}`);
    const others = page.getByRole('region', { name: 'Other copies on campus' });
    await expect(others.getByRole('link', { name: otherCopy.name })).toBeVisible();
    await expect(others.getByText('$27')).toBeVisible();
  });

  test('the search box takes a student to the results', async ({ page, listing }) => {
    await page.goto('/');
    await page.getByRole('search', { name: 'Books' }).getByRole('searchbox').fill(listing.name);
    await page.getByRole('search', { name: 'Books' }).getByRole('button').click();
    await expect(page).toHaveURL(
      /\/search\?searchTerm=rendered\+geology\+[a-z0-9]+&status=active_or_none$/,
    );
    await expect(page.getByRole('main').getByText(listing.name).first()).toBeVisible();
  });

  test('a listing that does not exist answers 404 with the not-found page', async ({ page }) => {
    const response = await page.goto('/listing/00000000-0000-4000-8000-000000000000');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Uh-Oh! Page Not Found' })).toBeVisible();
    await expect(page).toHaveTitle(/Page Not Found/);
  });

  test('the page title is in the head, and the data the page was rendered with is JSON, never a script', async ({
    request,
    listing,
  }) => {
    const html = await (await request.get(`/listing/${listing._id}`)).text();
    const head = html.slice(0, html.indexOf('</head>'));
    // The page's own title, once, in the head (React writes it first; the server moves it up).
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(head).toMatch(/<title>Rendered Geology [^<]* \| Campus Books<\/title>/i);
    expect(html).toMatch(/<script type="application\/json" id="ssr-state">\{/);
    // The code it hydrates with is listed, as JSON too, not preloaded by the head.
    expect(html).toMatch(/<script type="application\/json" id="page-modules">\["\/assets\/app-/);
    expect(head).not.toContain('modulepreload');
    // No inline script at all: the page's Content-Security-Policy allows none.
    expect(html.match(/<script(?![^>]*type="application\/json")(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
  });
});

test.describe('hydration', () => {
  for (const { name, path } of PAGES) {
    test(`the ${name} page hydrates without a warning and asks the API for none of its data`, async ({
      page,
      listing,
      otherCopy,
    }) => {
      const messages: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') {
          messages.push(`${message.type()}: ${message.text()}`);
        }
      });
      page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
      const calls = watchApiCalls(page);
      await page.goto(path(listing));
      // Hydrated: a client-side link works (the router, not a new document).
      await expect(page.getByRole('main').getByText(listing.name).first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(messages).toEqual([]);
      expect(calls.filter((call) => call.startsWith('/api/listing/get'))).toEqual([]);
      expect(calls.filter((call) => call.startsWith('/api/course/'))).toEqual([]);
      // The footer's links and a listing's demand line came with the page too.
      expect(calls.filter((call) => call === '/api/config')).toEqual([]);
      expect(calls.filter((call) => call === '/api/alerts/demand')).toEqual([]);
      // Nor the home page's most wanted courses, nor a listing's other copies (a search, above).
      expect(calls.filter((call) => call === '/api/alerts/most-wanted')).toEqual([]);
      if (name === 'listing') {
        const others = page.getByRole('region', { name: 'Other copies on campus' });
        await expect(others.getByRole('link', { name: otherCopy.name })).toBeVisible();
      }
    });
  }

  test('the policy pages hydrate without a warning, /privacy without asking for its periods again', async ({
    page,
  }) => {
    const messages: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') {
        messages.push(`${message.type()}: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
    const calls = watchApiCalls(page);
    for (const path of ['/about', '/privacy']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
    }
    // Hydrated: a link of the page is followed by the router, not a new document.
    await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));
    await page
      .getByRole('navigation', { name: 'Footer' })
      .getByRole('link', { name: 'About' })
      .click();
    await expect(page).toHaveURL(/\/about$/);
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(
      true,
    );
    expect(messages).toEqual([]);
    expect(calls.filter((call) => call === '/api/privacy' || call === '/api/config')).toEqual([]);
  });

  test("the app's code is fetched once the first screen is shown, not beside it", async ({
    page,
    listing,
  }) => {
    await page.goto(`/listing/${listing._id}`);
    await page.waitForLoadState('networkidle');
    const timing = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType(
        'navigation',
      ) as PerformanceNavigationTiming[];
      const app = performance
        .getEntriesByType('resource')
        .find((entry) => /\/assets\/app-[^/]+\.js$/.test(entry.name));
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      return { load: navigation!.loadEventStart, paint: paint?.startTime, app: app?.startTime };
    });
    expect(timing.app).toBeGreaterThanOrEqual(timing.load);
    expect(timing.app).toBeGreaterThanOrEqual(timing.paint!);
  });

  test('a tap, a tick and typing before the app has taken the page over are given to it, not lost', async ({
    page,
    listing,
  }) => {
    // The app's code is held back until the student has tapped (and typed) on the rendered page.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/app-[^/]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`/search?searchTerm=${encodeURIComponent(listing.name)}&status=active_or_none`);
    const filters = page.getByRole('form', { name: 'Filters' });
    const toggle = page.getByRole('button', { name: 'Search filters' });
    if (await toggle.isVisible()) {
      // A phone: the filters fold open from a button, which only the app can act on.
      const maxPrice = filters.getByLabel('Max price ($)');
      await toggle.click();
      await expect(maxPrice).toBeHidden();
      release();
      await expect(maxPrice).toBeVisible();
      return;
    }
    await filters.getByLabel('Max price ($)').fill('30');
    await filters.getByRole('group', { name: 'Condition' }).getByLabel('New').check();
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    expect(page.url()).not.toContain('maxPrice');
    release();
    await expect(page).toHaveURL(/[?&]maxPrice=30(&|$)/);
    await expect(page).toHaveURL(/[?&]condition=mint(&|$)/);
    await expect(page.getByRole('button', { name: 'Remove filter Up to $30' })).toBeVisible();
  });

  test('a signed-in student sees their own header in the server-rendered page', async ({
    page,
    makeUser,
    listing,
  }) => {
    const buyer = await makeUser('ssrbuyer');
    await signInBrowser(page, buyer, '/');
    const messages: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') messages.push(message.text());
    });
    const response = await page.request.get(`/listing/${listing._id}`);
    // The header the server rendered is the signed-in one (no "Login" link to flash and vanish).
    const html = await response.text();
    expect(html).not.toMatch(/href="\/sign-in"[^>]*>Login</);
    expect(response.headers()['cache-control']).toBe('private, no-cache');
    // This device's copy of the session is gone (the cookie alone signs the student in): the page
    // writes the user the server rendered it for, once the browser is idle.
    await page.evaluate(() => localStorage.removeItem('campus-books:session'));
    await page.goto(`/listing/${listing._id}`);
    await expect(page.getByRole('main').getByText(listing.name).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('campus-books:session')))
      .toContain(buyer.id);
    expect(messages).toEqual([]);
  });
});

test('a search without a status filter is redirected to the one the page shows', async ({
  request,
}) => {
  const response = await request.get('/search?searchTerm=calculus', { maxRedirects: 0 });
  expect(response.status()).toBe(302);
  expect(response.headers().location).toBe('/search?searchTerm=calculus&status=active_or_none');
});
