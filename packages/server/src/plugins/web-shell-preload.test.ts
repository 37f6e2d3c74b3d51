import { APP_SHELL_MODULES, APP_START_MODULE } from '@campus-books/common/server-rendering';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebTestApp, TEST_ENGINE, type TestApp } from '../../test/helpers';

// The app shell (every page the server does not render) preloads the app's code from its head, read
// from the build's manifest: the chunks of APP_SHELL_MODULES and every chunk they import.
const [, SHELL_DATA_MODULE] = APP_SHELL_MODULES;
const MANIFEST = {
  'index.html': {
    file: 'assets/index-1.js',
    isEntry: true,
    dynamicImports: [APP_START_MODULE],
  },
  [APP_START_MODULE]: {
    file: 'assets/start-1.js',
    isDynamicEntry: true,
    imports: ['_app-1.js', 'index.html'],
    dynamicImports: [SHELL_DATA_MODULE],
  },
  '_app-1.js': { file: 'assets/app-1.js' },
  [SHELL_DATA_MODULE!]: {
    file: 'assets/prefetch-1.js',
    isDynamicEntry: true,
    imports: ['_app-1.js', '_search-filters-1.js'],
  },
  '_search-filters-1.js': { file: 'assets/search-filters-1.js' },
  'src/features/auth/sign-in-page.tsx': {
    file: 'assets/sign-in-page-1.js',
    imports: ['_app-1.js'],
  },
};
const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Campus Books</title>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

describe(`web shell: the app's code preloaded from the head (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    const chunks = Object.fromEntries(
      Object.values(MANIFEST).map((chunk) => [chunk.file, 'export {};']),
    );
    t = await createWebTestApp({
      'index.html': SHELL,
      '.vite/manifest.json': JSON.stringify(MANIFEST),
      ...chunks,
    });
  });
  afterAll(() => t.close());

  const preloads = (html: string) =>
    [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

  it('preloads the app and the landing data code with every chunk they import, each once', async () => {
    for (const url of ['/sign-in', '/profile', '/no-such-page']) {
      const res = await t.app.inject(url);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const head = res.body.slice(0, res.body.indexOf('</head>'));
      expect(preloads(head).sort()).toEqual(
        [
          '/assets/app-1.js',
          '/assets/prefetch-1.js',
          '/assets/search-filters-1.js',
          '/assets/start-1.js',
        ].sort(),
      );
    }
  });

  it('leaves out the entry script the shell already loads, and pages not yet visited', async () => {
    const { body } = await t.app.inject('/sign-in');
    expect(preloads(body)).not.toContain('/assets/index-1.js');
    expect(preloads(body)).not.toContain('/assets/sign-in-page-1.js');
  });

  it('preloads only addresses that answer', async () => {
    const { body } = await t.app.inject('/sign-in');
    for (const href of preloads(body)) {
      const res = await t.app.inject(href!);
      expect(res.statusCode, href).toBe(200);
    }
  });
});
