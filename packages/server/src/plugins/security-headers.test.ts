import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, createWebTestApp, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { createListingAs } from '../../test/listing-fixtures';
import { createUploadedImage } from '../../test/support/test-uploaded-image';

const SHELL = `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>Campus Books</title></head>
  <body><div id="root"></div><script type="module" src="/assets/app-1234.js"></script></body>
</html>
`;

/** The real app serving a small built web app, at `publicUrl`. */
function createWebApp(publicUrl: string): Promise<TestApp> {
  return createWebTestApp(
    { 'index.html': SHELL, 'assets/app-1234.js': 'console.log(1)' },
    { PUBLIC_URL: publicUrl },
  );
}

/** `default-src 'self'; img-src 'self' data:` as a map of directive to its sources. */
function parseCsp(header: string | undefined): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

const header = (res: LightMyRequestResponse, name: string) => {
  const value = res.headers[name];
  return Array.isArray(value) ? value.join(', ') : value === undefined ? undefined : String(value);
};

describe(`security headers on every answer (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let answers: Record<string, LightMyRequestResponse>;
  beforeAll(async () => {
    t = await createWebApp('https://books.example.edu');
    const seller = await createUser(t);
    const listing = await createListingAs(t, seller);
    const image = await createUploadedImage(t, seller.id);
    const get = (url: string) => t.app.inject({ method: 'GET', url });
    answers = {
      'the app shell': await get('/'),
      'an app route': await get('/profile'),
      "a listing's page": await get(`/listing/${listing._id}`),
      'a built script': await get('/assets/app-1234.js'),
      'a JSON answer': await get('/api/health'),
      'a JSON list': await get('/api/listing/get'),
      'an image': await get(image),
      'an unknown API route': await get('/api/nothing-here'),
      'a malformed path': await get('/api/listing/get/%E0%A4%A'),
      'an unreadable body': await t.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        headers: { 'content-type': 'application/json' },
        payload: '{not json',
      }),
      'a 401': await get('/api/auth/me'),
    };
  });
  afterAll(() => t.close());

  it('answers what the cases expect (the cases are real)', () => {
    expect(answers['the app shell']!.statusCode).toBe(200);
    expect(answers["a listing's page"]!.statusCode).toBe(200);
    expect(answers['a built script']!.statusCode).toBe(200);
    expect(answers['an image']!.statusCode).toBe(200);
    expect(answers['an image']!.headers['content-type']).toMatch(/^image\//);
    expect(answers['a JSON answer']!.headers['content-type']).toMatch(/application\/json/);
    expect(answers['an unknown API route']!.statusCode).toBe(404);
    expect(answers['a malformed path']!.statusCode).toBe(400);
    expect(answers['an unreadable body']!.statusCode).toBe(400);
    expect(answers['a 401']!.statusCode).toBe(401);
  });

  const cases = [
    'the app shell',
    'an app route',
    "a listing's page",
    'a built script',
    'a JSON answer',
    'a JSON list',
    'an image',
    'an unknown API route',
    'a malformed path',
    'an unreadable body',
    'a 401',
  ];

  it.each(cases)('%s: nosniff, no framing, referrer policy, COOP, HSTS', (name) => {
    const res = answers[name]!;
    expect(header(res, 'x-content-type-options')).toBe('nosniff');
    expect(header(res, 'x-frame-options')).toBe('DENY');
    expect(header(res, 'referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(header(res, 'cross-origin-opener-policy')).toBe('same-origin');
    expect(header(res, 'strict-transport-security')).toMatch(/^max-age=\d{7,}/);
    const csp = parseCsp(header(res, 'content-security-policy'));
    // An image keeps the stricter policy of its own route (no sources, sandboxed).
    if (name === 'an image') expect(csp.get('default-src')).toEqual(["'none'"]);
    else expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('the app shell runs under a strict Content-Security-Policy', () => {
    const csp = parseCsp(header(answers['the app shell']!, 'content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.has('upgrade-insecure-requests')).toBe(true);
    expect(csp.get('report-uri')).toEqual(['/api/csp-report']);
    for (const sources of csp.values()) {
      expect(sources).not.toContain("'unsafe-inline'");
      expect(sources).not.toContain("'unsafe-eval'");
    }
  });
});

describe(`security headers behind a plain-http PUBLIC_URL (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createWebApp('http://127.0.0.1:3000');
  });
  afterAll(() => t.close());

  it('sends no HSTS and does not upgrade requests to https', async () => {
    for (const url of ['/', '/api/health']) {
      const res = await t.app.inject(url);
      expect(res.headers['strict-transport-security']).toBeUndefined();
      const csp = parseCsp(header(res, 'content-security-policy'));
      expect(csp.has('upgrade-insecure-requests')).toBe(false);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(header(res, 'x-content-type-options')).toBe('nosniff');
    }
  });
});

describe(`no caching of account answers (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let cookie: string;
  let userId: string;
  beforeAll(async () => {
    t = await createWebApp('http://127.0.0.1:3000');
    const user = await createUser(t);
    cookie = user.cookie;
    userId = user.id;
  });
  afterAll(() => t.close());

  it.each([
    ['GET', '/api/auth/session', false, 200],
    ['GET', '/api/auth/me', true, 200],
    ['GET', '/api/auth/me', false, 401],
    ['POST', '/api/auth/signin', false, 400],
    ['POST', '/api/auth/nothing-here', false, 404],
    ['GET', '/api/user/get/USER', true, 200],
    ['GET', '/api/user/listings/USER', true, 200],
    ['GET', '/api/user/listings/USER', false, 401],
    ['POST', '/api/user/update/USER', true, 400],
  ] as const)(
    '%s %s (signed in: %s) answers %i with Cache-Control: no-store',
    async (method, url, signedIn, status) => {
      const res = await t.app.inject({
        method,
        url: url.replace('USER', userId),
        headers: {
          ...(signedIn ? { cookie } : {}),
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        ...(method === 'POST' ? { payload: '{"email":1}' } : {}),
      });
      expect(res.statusCode).toBe(status);
      expect(res.headers['cache-control']).toBe('no-store');
    },
  );

  it('leaves the cache policy of other answers alone', async () => {
    expect((await t.app.inject('/api/listing/get')).headers['cache-control']).not.toBe('no-store');
  });
});

describe(`the CSP report endpoint (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createWebApp('http://127.0.0.1:3000');
  });
  afterAll(() => t.close());

  const report = (contentType: string, payload: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': contentType },
      payload,
    });

  it('takes a report-uri report (application/csp-report) with 204', async () => {
    const res = await report(
      'application/csp-report',
      JSON.stringify({
        'csp-report': {
          'document-uri': 'http://127.0.0.1:3000/',
          'violated-directive': 'script-src-elem',
          'blocked-uri': 'inline',
        },
      }),
    );
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });

  it('takes Reporting API reports (application/reports+json) with 204', async () => {
    const res = await report(
      'application/reports+json',
      JSON.stringify([
        {
          type: 'csp-violation',
          url: 'http://127.0.0.1:3000/',
          body: { effectiveDirective: 'img-src', blockedURL: 'https://evil.example/x.png' },
        },
      ]),
    );
    expect(res.statusCode).toBe(204);
  });

  it('shrugs off a malformed report (204) and refuses a large one (413) or another type (415)', async () => {
    expect((await report('application/csp-report', '{nope')).statusCode).toBe(204);
    expect((await report('application/csp-report', 'x'.repeat(64 * 1024))).statusCode).toBe(413);
    expect((await report('text/html', '<p>hi</p>')).statusCode).toBe(415);
  });
});
