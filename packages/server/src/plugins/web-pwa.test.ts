import { brotliCompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebTestApp, TEST_ENGINE } from '../../test/helpers';

const WORKER = `self.addEventListener('fetch', () => {}); // ${'x'.repeat(2000)}`;
const MANIFEST = JSON.stringify({ name: 'Campus Books', start_url: '/', display: 'standalone' });

/** The app serving a built web app; `withWorker: false` is a build without the PWA files. */
function serve(withWorker: boolean) {
  return createWebTestApp({
    'index.html': '<!doctype html><title>Campus Books</title>',
    'assets/index-abc123.js': 'console.log(1)',
    ...(withWorker
      ? {
          'sw.js': WORKER,
          'sw.js.br': brotliCompressSync(WORKER),
          'manifest.webmanifest': MANIFEST,
        }
      : {}),
  });
}

const csp = (headers: Record<string, unknown>) => String(headers['content-security-policy']);

describe(`service worker and web app manifest (${TEST_ENGINE})`, () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  beforeAll(async () => ({ app, close } = await serve(true)));
  afterAll(() => close());

  it('serves /sw.js as JavaScript that the browser revalidates on every visit', async () => {
    for (const encoding of ['br', undefined]) {
      const res = await app.inject({
        url: '/sw.js',
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect((await app.inject('/sw.js')).body).toBe(WORKER);
  });

  it('serves the manifest as application/manifest+json, checked on every use', async () => {
    const res = await app.inject('/manifest.webmanifest');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.json()).toMatchObject({ start_url: '/', display: 'standalone' });
  });

  it("lets the page register its own worker and manifest, and no one else's", async () => {
    for (const url of ['/', '/sw.js', '/manifest.webmanifest']) {
      const policy = csp((await app.inject(url)).headers);
      expect(policy).toContain("worker-src 'self'");
      expect(policy).toContain("manifest-src 'self'");
      // The worker's own fetches (it runs under the policy of /sw.js) stay on this origin.
      expect(policy).toContain("connect-src 'self'");
      expect(policy).not.toMatch(/worker-src[^;]*(\*|https?:|blob:)/);
    }
  });

  it('keeps the hashed assets immutable', async () => {
    const res = await app.inject('/assets/index-abc123.js');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

describe(`a build without a service worker (${TEST_ENGINE})`, () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  beforeAll(async () => ({ app, close } = await serve(false)));
  afterAll(() => close());

  it('answers /sw.js and the manifest 404, never with the app shell', async () => {
    // A worker script answered with index.html would fail to install; a 404 unregisters it.
    for (const url of ['/sw.js', '/manifest.webmanifest']) {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.body).not.toContain('<!doctype html>');
    }
  });
});
