import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { createUser, openTestDatabase, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { createListingAs } from '../listing-fixtures';
import { createUploadedImage } from '../support/test-uploaded-image';
import { printFigure } from './security-helpers';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Each one calls window.__xss if a renderer ever runs it as code. */
const PAYLOADS = {
  img: '<img src=x onerror=__xss("img")>',
  svg: '<svg onload=__xss("svg")>',
  script: '"><script>__xss("script")</script>',
  title: '</title><script>__xss("title")</script>',
  attr: '" autofocus onfocus=__xss("attr") x="',
  iframe: '<iframe srcdoc="<script>parent.__xss(1)</script>">',
  template: '{{constructor.constructor("__xss()")()}}',
};

/** The real built web app (packages/web/dist) and API on a real port. */
async function startWebApp(): Promise<TestApp & { origin: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-xss-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const database = await openTestDatabase();
  const app = await buildApp({ config, database, serveWeb: true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    database,
    config,
    dataDir,
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// The browser sees only HTML and the API's answers, which the engine does not change: it runs on
// one engine; the Open Graph check (server-rendered from the database) runs on both.
const onPglite = it.runIf(TEST_ENGINE === 'pglite');

describe(`stored XSS in a real browser (${TEST_ENGINE})`, () => {
  let t: TestApp & { origin: string };
  let browser: Browser;
  let seller: TestUser;
  let buyer: TestUser;
  let listingId = '';

  beforeAll(async () => {
    t = await startWebApp();
    seller = await createUser(t);
    buyer = await createUser(t);
    const cover = async () => [await createUploadedImage(t, seller.id)];
    const hostile = await createListingAs(t, seller, {
      imageUrls: await cover(),
      name: PAYLOADS.img,
      description: Object.values(PAYLOADS).join(' '),
      address: PAYLOADS.script,
      pickupLocation: PAYLOADS.title,
      courseNumber: PAYLOADS.svg.slice(0, 20),
    });
    listingId = hostile._id;
    await createListingAs(t, seller, { name: PAYLOADS.attr, imageUrls: await cover() });
    await createListingAs(t, seller, {
      name: PAYLOADS.title.slice(0, 62),
      imageUrls: await cover(),
    });
    const profile = await t.app.inject({
      method: 'POST',
      url: `/api/user/update/${seller.id}`,
      headers: { cookie: seller.cookie },
      payload: {
        username: PAYLOADS.script,
        groupmelink: `https://groupme.com/${PAYLOADS.attr}`,
      },
    });
    expect(profile.statusCode, profile.body).toBe(200);
    if (TEST_ENGINE === 'pglite') {
      browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: CHROMIUM_FLAGS,
      });
    }
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  onPglite(
    'renders every hostile field as text on every page that shows it: scripts run = 0',
    async () => {
      const executed: string[] = [];
      const context = await browser.newContext();
      await context.exposeFunction('__xss', (from: unknown) => executed.push(String(from)));
      const page = await context.newPage();
      page.on('dialog', (d) => {
        executed.push(`dialog ${d.message()}`);
        void d.dismiss();
      });
      const asUser = async (user: TestUser | null) => {
        await context.clearCookies();
        if (!user) return;
        const [name, value] = user.cookie.split('=') as [string, string];
        await context.addCookies([{ name, value, url: t.origin }]);
      };
      const visits: [TestUser | null, string, string][] = [
        [null, '/', 'img src=x'],
        [null, `/search?searchTerm=${encodeURIComponent('<img')}`, 'img src=x'],
        [null, `/search?searchTerm=${encodeURIComponent(PAYLOADS.script)}`, ''],
        [null, `/listing/${listingId}`, 'img src=x'],
        [buyer, `/listing/${listingId}`, '</title><script>'],
        [buyer, `/contact-seller/${seller.id}`, '"><script>'],
        [seller, '/profile', ''],
        [seller, `/update-listing/${listingId}`, ''],
      ];
      for (const [user, url, visible] of visits) {
        await asUser(user);
        await page.goto(`${t.origin}${url}`, { waitUntil: 'networkidle' });
        // The data reached the page (as text), so zero executions means something.
        if (visible)
          await expect
            .poll(() => page.locator('body').textContent(), { message: url, timeout: 15_000 })
            .toContain(visible);
        const links = await page.locator('a[href^="javascript:" i]').count();
        expect(links, `${url}: javascript: links`).toBe(0);
      }
      printFigure('stored XSS (chromium)', {
        pages: visits.length,
        payloads: Object.keys(PAYLOADS).length,
        scriptsExecuted: executed.length,
      });
      expect(executed).toEqual([]);
      await context.close();
    },
    60_000,
  );

  it('escapes the Open Graph tags of /listing/{id}', async () => {
    const html = await (await fetch(`${t.origin}/listing/${listingId}`)).text();
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('og:title');
    expect(head).not.toContain('<img src=x');
    expect(head).not.toContain('__xss("script")</script>');
    expect(head).toContain('content="&#60;img src=x onerror=__xss(&#34;img&#34;)&#62;"');
  });
});
