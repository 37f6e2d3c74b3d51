import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Listing } from '@campus-books/common/listing.schemas';
import { expect, signInBrowser, test as base } from '../src/fixtures';
import { phonePhoto } from '../src/images';
import { imagePicker, jpegFile, pickImages } from '../src/picker';
import { watchCspViolations } from '../src/csp-watch';
import { startConversation, type RoutePageData } from '../src/route-pages';
import { createListing, createUser, deleteUser } from '../src/users';

/**
 * The app runs under its Content-Security-Policy without a single violation (every page of the
 * route table, signed out and signed in, is watched by pages.spec.ts while axe checks it; here the
 * watch itself, the GroupMe link, the image picker downsizing and uploading a phone photo, a sold
 * listing relisted), and it refuses to render inside another site's frame.
 */

interface PageData extends RoutePageData {
  soldListing: Listing;
}

const test = base.extend<object, { data: PageData }>({
  data: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from it
    async ({}, use) => {
      const seller = await createUser('cspseller');
      const buyer = await createUser('cspbuyer');
      const listing = await createListing(seller, {
        name: 'introduction to sociology',
        courseNumber: '101',
      });
      const soldListing = await createListing(seller, {
        name: 'principles of accounting',
        courseNumber: '201',
      });
      await seller.api.call('POST /api/listing/mark-as-sold/:id', {
        params: { id: soldListing._id },
      });
      const conversationId = await startConversation(buyer, listing);
      await use({ seller, buyer, listing, soldListing, conversationId });
      await deleteUser(seller);
      await deleteUser(buyer);
    },
    { scope: 'worker' },
  ],
});

test('every page is served under a strict Content-Security-Policy', async ({ request }) => {
  const res = await request.get('/');
  const csp = res.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  // WebAssembly compiled from our own file (the ISBN scanner) is the one addition to 'self'.
  expect(csp).toMatch(/script-src 'self'( 'wasm-unsafe-eval')?(;|$)/);
  expect(csp).not.toContain('unsafe-inline');
});

test('a violation is caught here and reported to the server (the watch works)', async ({
  page,
}) => {
  const violations = await watchCspViolations(page);
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const report = page.waitForResponse((res) => res.url().endsWith('/api/csp-report'));
  // What an injected script would try: load something from another site.
  await page.evaluate(() => {
    const img = document.createElement('img');
    img.src = 'http://203.0.113.9/tracker.png';
    img.alt = '';
    document.body.append(img);
  });
  expect((await report).status()).toBe(204);
  await expect.poll(violations).toContainEqual(expect.stringMatching(/^img-src blocked /));
});

test('contact-seller: the GroupMe deep link is a plain link the policy leaves alone', async ({
  page,
  data,
}) => {
  const violations = await watchCspViolations(page);
  await signInBrowser(page, data.buyer, `/contact-seller/${data.seller.id}`);
  await expect(page.getByRole('heading', { name: 'Great Choice!' })).toBeVisible();
  await expect(page.locator(`a[href="${data.seller.groupmelink}"]`).first()).toBeVisible();
  await page.waitForLoadState('load');
  expect(await violations()).toEqual([]);
});

test('create a listing with a phone photo (downsized in a canvas, sent with tus): no violation', async ({
  page,
  data,
}) => {
  test.setTimeout(120_000);
  const violations = await watchCspViolations(page);
  await signInBrowser(page, data.seller, '/create-listing');
  await expect(page.getByRole('heading', { name: 'Create a Listing' })).toBeVisible();
  const form = page.locator('form');
  await pickImages(form, [jpegFile('IMG_0001.jpg', await phonePhoto())]);
  await expect(imagePicker(form).thumbnails).toHaveCount(1, { timeout: 60_000 });
  await expect(imagePicker(form).thumbnails.first()).toHaveJSProperty('complete', true);
  expect(await violations()).toEqual([]);
});

test('a sold listing asks to be relisted before it is edited', async ({ page, data }) => {
  const violations = await watchCspViolations(page);
  await signInBrowser(page, data.seller, `/update-listing/${data.soldListing._id}`);
  await expect(page.getByText('Relist it first to edit')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Update listing' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Relist' }).click();
  await expect(page.getByRole('button', { name: 'Update listing' })).toBeVisible();
  expect(await violations()).toEqual([]);
  // Put it back as it was for the other project's run.
  await data.seller.api.call('POST /api/listing/mark-as-sold/:id', {
    params: { id: data.soldListing._id },
  });
});

test.describe('framing by another site', () => {
  let server: Server;
  let framingUrl: string;
  test.beforeAll(async ({ baseURL }) => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><title>Another site</title><h1>Another site</h1>` +
          `<iframe title="framed" src="${baseURL}/sign-in" width="600" height="400"></iframe>`,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    framingUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('the app refuses to render inside a frame on another origin', async ({ page }) => {
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors|X-Frame-Options/i.test(message.text())) refused.push(message.text());
    });
    const appLoaded = page
      .waitForRequest((req) => /\/assets\/.*\.js$/.test(req.url()), { timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    await page.goto(framingUrl);
    await expect(page.getByRole('heading', { name: 'Another site' })).toBeVisible();
    const frame = page.frameLocator('iframe[title="framed"]');
    // The browser blocks the document: no app, no sign-in form inside the frame.
    await expect.poll(() => refused.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await expect(frame.locator('#root')).toHaveCount(0);
    await expect(frame.getByRole('heading', { name: 'Sign In' })).toHaveCount(0);
    expect(await appLoaded).toBe(false);
  });
});
