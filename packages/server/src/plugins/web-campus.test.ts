import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BRAND_SHADES } from '@campus-books/common/campus-theme';
import { setActiveCampus } from '@campus-books/common/active-campus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebTestApp, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { DEFAULT_CAMPUS_FILE, readCampusFile } from '../config/campus-file';
import { campusStylesheet } from './web-campus';

const PACIFIC_CREST = fileURLToPath(
  new URL('../../campus/examples/pacific-crest.yaml', import.meta.url),
);

/** index.html and the manifest as the web build writes them: the default campus's names in them. */
const BUILT_SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta
      name="description"
      content="Campus Books: buy and sell used course textbooks with students of the University of Richmond."
    />
    <meta name="theme-color" content="#1c46a3" />
    <title>Campus Books</title>
    <link rel="stylesheet" crossorigin href="/assets/index-abc123.css">
  <link rel="manifest" href="/manifest.webmanifest"></head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;
const BUILT_MANIFEST = JSON.stringify({
  name: 'Campus Books · University of Richmond',
  short_name: 'Campus Books',
  description: 'Buy and sell used course textbooks with students of the University of Richmond.',
  start_url: '/',
  display: 'standalone',
  background_color: '#f8fafc',
  theme_color: '#1c46a3',
  icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' }],
});
const DEFAULT_CAMPUS_WORDS = ['University of Richmond', '#2458c6', '#1c46a3', 'Campus Books'];

function expectNoDefaultCampus(text: string) {
  for (const word of DEFAULT_CAMPUS_WORDS) expect(text).not.toContain(word);
}

describe('the default campus', () => {
  it("answers /campus.css with the web app's own palette (index.css): nothing changes for it", () => {
    const indexCss = readFileSync(new URL('../../../web/src/index.css', import.meta.url), 'utf8');
    const css = campusStylesheet(readCampusFile(DEFAULT_CAMPUS_FILE));
    for (const shade of BRAND_SHADES) {
      const value = new RegExp(`--color-brand-${shade}:(#[0-9a-f]{6});`).exec(css)?.[1];
      expect(indexCss).toContain(`--color-brand-${shade}: ${value};`);
    }
  });
});

describe(`the web app served for another campus (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createWebTestApp(
      {
        'index.html': BUILT_SHELL,
        'manifest.webmanifest': BUILT_MANIFEST,
        'assets/index-abc123.css': ':root{--color-brand-600:#2458c6}',
      },
      { CAMPUS_CONFIG: PACIFIC_CREST },
    );
  });
  afterAll(async () => {
    await t.close();
    // Loading a campus made it the process's: the next test files (same worker) run on the default.
    setActiveCampus(readCampusFile(DEFAULT_CAMPUS_FILE));
  });

  it("answers the manifest with the campus's names, colour and icons (its logo's)", async () => {
    const res = await t.app.inject('/manifest.webmanifest');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toBeTruthy();
    expect(res.json()).toEqual({
      name: 'Crest Textbook Exchange · Pacific Crest University',
      short_name: 'Crest Textbook Exchange',
      description: 'Buy and sell used course textbooks with students at Pacific Crest University.',
      start_url: '/',
      display: 'standalone',
      background_color: '#f8fafc',
      theme_color: '#0c584e',
      icons: [
        {
          src: expect.stringMatching(/^\/campus-icons\/icon-192\.png\?v=/),
          sizes: '192x192',
          type: 'image/png',
          purpose: 'any',
        },
        {
          src: expect.stringMatching(/^\/campus-icons\/icon-512\.png\?v=/),
          sizes: '512x512',
          type: 'image/png',
          purpose: 'any',
        },
        {
          src: expect.stringMatching(/^\/campus-icons\/icon-maskable-512\.png\?v=/),
          sizes: '512x512',
          type: 'image/png',
          purpose: 'maskable',
        },
      ],
    });
    expectNoDefaultCampus(res.body);
    const again = await t.app.inject({
      url: '/manifest.webmanifest',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it("titles and describes the shell with the campus's names, and links its palette", async () => {
    for (const url of ['/', '/sell', '/index.html']) {
      const html = (await t.app.inject(url)).body;
      expect(html).toContain('<title>Crest Textbook Exchange</title>');
      expect(html).toContain(
        '<meta name="description" content="Crest Textbook Exchange: buy and sell used course textbooks with students at Pacific Crest University." />',
      );
      expect(html).toContain('<meta name="theme-color" content="#0c584e" />');
      expect(html).toMatch(/<link rel="stylesheet" href="\/campus\.css\?v=[\w-]{12}">/);
      const head = html.slice(0, html.indexOf('<script type="application/json"'));
      expectNoDefaultCampus(head);
    }
  });

  it("answers /campus.css with the palette of the campus's colour, kept while its version holds", async () => {
    const html = (await t.app.inject('/')).body;
    const href = /href="(\/campus\.css\?v=[^"]+)"/.exec(html)![1]!;
    const res = await t.app.inject(href);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toContain('--color-brand-600:#0f6e62;');
    expect(res.body).toContain('--color-brand-700:#0c584e;');
    expectNoDefaultCampus(res.body);
    // An older page's address (another campus's version) is answered, but checked on every use.
    const stale = await t.app.inject('/campus.css?v=older');
    expect(stale.headers['cache-control']).toBe('no-cache');
    expect(stale.body).toBe(res.body);
    const again = await t.app.inject({
      url: href,
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });
});
