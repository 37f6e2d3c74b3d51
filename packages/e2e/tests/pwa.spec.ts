import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { chromiumFlags, FULL_CHROMIUM } from '../playwright.config';
import { expect, signInBrowser, test } from '../src/fixtures';
import { createListing } from '../src/users';

// Installable and usable offline (docs/decisions/011-installable-offline.md). The service worker is
// left on here: these tests are about it. In the full browser: the headless shell has no
// background sync (decision 025).
test.use({ launchOptions: { executablePath: FULL_CHROMIUM, args: chromiumFlags } });

const OFFLINE_COPY = "You're offline — showing what you saw last.";
const OFFLINE_WRITE = "You're offline: nothing was sent. Try again when you're back online.";

/** The service worker is installed (its precache filled) and controls the page. */
async function controlledByWorker(page: Page): Promise<string> {
  const scriptUrl = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.scriptURL ?? '';
  });
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
  return scriptUrl;
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

test('the web app manifest is linked and complete, with real icons', async ({ page }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const response = await page.request.get(href!);
  expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = await response.json();
  const themeColor = await page.locator('meta[name="theme-color"]').getAttribute('content');
  expect(manifest).toMatchObject({
    short_name: 'Campus Books',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: themeColor,
    background_color: '#f8fafc',
  });
  expect(manifest.name).toContain('Campus Books');
  const icons = manifest.icons as { src: string; sizes: string; purpose: string }[];
  for (const icon of icons) {
    const image = await page.request.get(icon.src);
    expect(image.headers()['content-type']).toBe('image/png');
    const [width, height] = pngSize(await image.body());
    expect(`${width}x${height}`).toBe(icon.sizes);
  }
  expect(icons.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);

  // Chromium's own verdict on the manifest as it parsed it.
  const cdp = await page.context().newCDPSession(page);
  expect((await cdp.send('Page.getAppManifest')).errors).toEqual([]);
});

test('Chromium finds nothing that stops "Install app"', async ({ browserName }) => {
  test.skip(browserName !== 'chromium', 'a Chromium DevTools protocol check');
  // Test contexts are incognito, where nothing is installable: a real (temporary) profile instead.
  const profile = mkdtempSync(path.join(tmpdir(), 'cb-pwa-profile-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: FULL_CHROMIUM,
    args: chromiumFlags,
    baseURL: process.env.E2E_BASE_URL,
  });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto('/');
    await controlledByWorker(page);
    const cdp = await browser.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('the service worker registers and controls the page', async ({ page }) => {
  await page.goto('/');
  expect(await controlledByWorker(page)).toMatch(/\/sw\.js$/);
  // The shell is precached: its HTML, scripts and styles are in the worker's cache.
  const cachedUrls = () =>
    page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      }
      return urls;
    });
  const cached = await cachedUrls();
  expect(cached.some((url) => /\/index\.html/.test(url))).toBe(true);
  // The campus's palette (/campus.css?v=…) is the running server's, not the build's: the worker
  // keeps it when a page it controls asks for it, from the next page on.
  const campusCss = await page.locator('link[href^="/campus.css?v="]').getAttribute('href');
  for (const asset of await page.locator('script[src], link[rel="stylesheet"]').all()) {
    const url = (await asset.getAttribute('src')) ?? (await asset.getAttribute('href'))!;
    if (url === campusCss) continue;
    expect(cached.some((cachedUrl) => cachedUrl.includes(url))).toBe(true);
  }
  await page.reload();
  await expect
    .poll(async () => (await cachedUrls()).some((url) => url.endsWith(campusCss!)))
    .toBe(true);
});

test('a listing and a search seen online open offline, saying so', async ({
  page,
  context,
  makeUser,
}) => {
  const seller = await makeUser('offline');
  const tag = `zo${seller.lastName.slice(-5).toLowerCase()}`;
  const listing = await createListing(seller, {
    name: `${tag} offline optics`,
    courseNumber: '210',
  });
  const searchPath = `/search?searchTerm=${tag}`;
  const notice = page.getByRole('status').filter({ hasText: "You're offline" });

  await page.goto('/');
  await controlledByWorker(page);
  await page.goto(`/listing/${listing._id}`);
  const heading = page.getByRole('heading', {
    level: 1,
    name: new RegExp(`${tag} offline optics`, 'i'),
  });
  await expect(heading).toBeVisible();
  const photo = page.locator(`img[src*="/api/images/"]`).first();
  await expect
    .poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  await page.goto(searchPath);
  const results = page.getByRole('region', { name: 'Listing results' }).getByRole('listitem');
  await expect(results.first()).toContainText(new RegExp(`${tag} offline optics`, 'i'));
  // Online: no notice.
  await expect(notice).toHaveCount(0);

  await context.setOffline(true);
  await page.goto(`/listing/${listing._id}`);
  await expect(heading).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: OFFLINE_COPY })).toBeVisible();
  // The photo too, from the image cache.
  await expect
    .poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);

  await page.goto(searchPath);
  await expect(results.first()).toContainText(new RegExp(`${tag} offline optics`, 'i'));
  await expect(page.getByRole('status').filter({ hasText: OFFLINE_COPY })).toBeVisible();

  // A search never made online: the shell opens and says it is offline, with nothing to show.
  await page.goto(`/search?searchTerm=${tag}neverseen`);
  await expect(notice).toBeVisible();
  await expect(notice).not.toContainText('showing what you saw last');

  // Back online, the page is live again and the notice goes.
  await context.setOffline(false);
  await page.goto(searchPath);
  await expect(results.first()).toBeVisible();
  await expect(notice).toHaveCount(0);
});

test('a change made offline is refused with a clear message, and nothing is sent', async ({
  page,
  context,
  makeUser,
}) => {
  const user = await makeUser('offwrite');
  await signInBrowser(page, user, '/profile');
  await controlledByWorker(page);
  const username = page.getByLabel('Username');
  await expect(username).toBeVisible();
  await username.fill(`${user.firstName}offline`);

  const writes: string[] = [];
  context.on('request', (request) => {
    if (request.method() !== 'GET') writes.push(`${request.method()} ${request.url()}`);
  });
  const offlineNotice = page.getByRole('status').filter({ hasText: "You're offline" });
  await context.setOffline(true);
  await expect(offlineNotice).toBeVisible();
  const update = page.getByRole('button', { name: 'Update Profile' });
  await update.click();
  await expect(page.getByRole('alert')).toContainText(OFFLINE_WRITE);
  expect(writes).toEqual([]);

  // Nothing was queued to be replayed once the network is back. A replay would start from the
  // browser's `online` event (a paused mutation, a queued request) or from the worker's Background
  // Sync: the notice going away is the page hearing that event, and the worker holds no sync.
  await context.setOffline(false);
  await expect(offlineNotice).toHaveCount(0);
  expect(
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (registration as unknown as { sync: { getTags(): Promise<string[]> } }).sync.getTags();
    }),
  ).toEqual([]);
  const me = await user.api.call('GET /api/auth/me');
  expect(me.username).not.toBe(`${user.firstName}offline`);

  // Online, the same press sends the change once, and it is saved: had anything been queued on the
  // `online` event, it was sent before this one, and is the second write.
  const answer = page.waitForResponse((r) => r.request().method() === 'POST');
  await update.click();
  expect((await answer).status()).toBe(200);
  expect(writes).toEqual([
    expect.stringMatching(new RegExp(`^POST .*/api/user/update/${user.id}$`)),
  ]);
  const saved = await user.api.call('GET /api/auth/me');
  expect(saved.username).toBe(`${user.firstName}offline`);
});

/** The built worker the e2e server serves (from disk, on every request). */
const WORKER_FILE = path.resolve(import.meta.dirname, '../../web/dist/sw.js');

/**
 * A deploy of the worker: sw.js (and its precompressed copies) rewritten with a new revision of
 * index.html in its precache list, as a build with a changed shell would be. Returns the undo.
 */
function deployNextWorker(): () => void {
  const files = [WORKER_FILE, `${WORKER_FILE}.br`, `${WORKER_FILE}.gz`];
  for (const file of files) copyFileSync(file, `${file}.before-test`);
  const next = readFileSync(WORKER_FILE, 'utf8').replace(
    /"revision":"[0-9a-f]+","url":"index.html"/,
    '"revision":"next-build","url":"index.html"',
  );
  expect(next).toContain('"revision":"next-build"');
  writeFileSync(WORKER_FILE, next);
  writeFileSync(`${WORKER_FILE}.br`, brotliCompressSync(next));
  writeFileSync(`${WORKER_FILE}.gz`, gzipSync(next));
  return () => {
    for (const file of files) {
      copyFileSync(`${file}.before-test`, file);
      rmSync(`${file}.before-test`);
    }
  };
}

/** What the worker's caches hold of index.html: its revision parameter. */
const precachedShells = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls.filter((url) => url.includes('index.html')).map((url) => url.split('?')[1]);
  });

test("a new version's shell and worker are used on the next visit", async ({ page, context }) => {
  await page.goto('/');
  await controlledByWorker(page);
  const [firstShell] = await precachedShells(page);

  // A new index.html: the next visit gets it at once, though a worker controls the page
  // (navigations go to the network first).
  const NEW_SHELL_MARK = '<meta name="campus-books-build" content="next" />';
  const nextShell = (await (await page.request.get('/')).text()).replace(
    '</head>',
    `${NEW_SHELL_MARK}</head>`,
  );
  await context.route(/:\d+\/(index\.html)?($|\?)/, (route) =>
    route.fulfill({ contentType: 'text/html', body: nextShell }),
  );
  await page.reload();
  await expect(page.locator('meta[name="campus-books-build"]')).toHaveCount(1);

  // A new worker: found on the next check (sw.js is never cached), it takes over without a prompt
  // or a waiting tab (skipWaiting + clientsClaim), with the new shell in its precache. The browser
  // lets it take over only once the old one has no request in hand (a page still loading its
  // photos or code can hold it for seconds on a busy machine), so the page is let go quiet first.
  await page.waitForLoadState('networkidle');
  const undo = deployNextWorker();
  try {
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
    await expect
      .poll(
        async () => ({
          shells: await precachedShells(page),
          waiting: await page.evaluate(async () =>
            Boolean((await navigator.serviceWorker.getRegistration())?.waiting),
          ),
        }),
        { timeout: 30_000 },
      )
      .toEqual({ shells: ['__WB_REVISION__=next-build'], waiting: false });
    expect(firstShell).not.toBe('__WB_REVISION__=next-build');
  } finally {
    undo();
  }

  // Offline, the precached shell is the new one. The browser's offline switch does not always
  // reach a worker that has just taken over (its first fetch of its own can still go out), so the
  // page's address is made unreachable for it as well.
  await context.setOffline(true);
  await context.route(/\/about$/, (route) => route.abort('internetdisconnected'));
  await page.goto('/about');
  await expect(page.locator('meta[name="campus-books-build"]')).toHaveCount(1);
  await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toBeVisible();
});
