import { utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebTestApp, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { accepts, matchesEtag } from './web-assets';

const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const WORKER = `self.addEventListener('fetch', () => {}); // ${'w'.repeat(2000)}`;
const SCRIPT_URL = '/assets/index-abc123.js';

describe(`built files served from memory (${TEST_ENGINE})`, () => {
  let t: TestApp & { distDir: string };
  beforeAll(async () => {
    t = await createWebTestApp({
      'index.html': '<!doctype html><title>Campus Books</title>',
      'assets/index-abc123.js': SCRIPT,
      'assets/index-abc123.js.br': brotliCompressSync(SCRIPT),
      'assets/index-abc123.js.gz': gzipSync(SCRIPT),
      'assets/small-x1.css': 'body{}',
      'sw.js': WORKER,
      'sw.js.gz': gzipSync(WORKER),
      'manifest.webmanifest': '{"name":"Campus Books"}',
      'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    });
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('answers with brotli, then gzip, then the file itself, as Accept-Encoding allows', async () => {
    const cases = [
      ['gzip, deflate, br', 'br', brotliCompressSync(SCRIPT)],
      ['gzip', 'gzip', gzipSync(SCRIPT)],
      ['br;q=0, gzip;q=0.5', 'gzip', gzipSync(SCRIPT)],
      ['*', 'br', brotliCompressSync(SCRIPT)],
      ['deflate', undefined, Buffer.from(SCRIPT)],
      ['', undefined, Buffer.from(SCRIPT)],
    ] as const;
    for (const [acceptEncoding, encoding, body] of cases) {
      const res = await get(SCRIPT_URL, { 'accept-encoding': acceptEncoding });
      expect(res.statusCode, acceptEncoding).toBe(200);
      expect(res.headers['content-encoding'], acceptEncoding).toBe(encoding);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['content-length']).toBe(String(body.length));
      // Compressed once at build time; whatever is in the file is what is sent, byte for byte.
      expect(res.rawPayload.equals(body), acceptEncoding).toBe(true);
    }
  });

  it('gives each encoding its own strong ETag and answers a matching If-None-Match with 304', async () => {
    const br = await get(SCRIPT_URL, { 'accept-encoding': 'br' });
    const plain = await get(SCRIPT_URL);
    const etag = String(br.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(plain.headers.etag).not.toBe(etag);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await get(SCRIPT_URL, { 'accept-encoding': 'br', 'if-none-match': ifNoneMatch });
      expect(res.statusCode, ifNoneMatch).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toBe('Accept-Encoding');
    }
    // The brotli tag does not stand for the gzip bytes.
    const gzip = await get(SCRIPT_URL, { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzip.statusCode).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const res = await t.app.inject({
      method: 'HEAD',
      url: SCRIPT_URL,
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-length']).toBe(String(brotliCompressSync(SCRIPT).length));
  });

  it('keeps the cache rules: hashed assets forever, the worker and the campus manifest never', async () => {
    const expected: Record<string, string> = {
      [SCRIPT_URL]: 'public, max-age=31536000, immutable',
      '/assets/small-x1.css': 'public, max-age=31536000, immutable',
      '/sw.js': 'no-cache',
      '/manifest.webmanifest': 'no-cache',
      '/favicon.svg': 'public, max-age=3600',
    };
    for (const [url, cacheControl] of Object.entries(expected)) {
      for (const acceptEncoding of ['gzip', '']) {
        const res = await get(url, { 'accept-encoding': acceptEncoding });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['cache-control'], url).toBe(cacheControl);
        expect(res.headers['x-content-type-options'], url).toBe('nosniff');
        expect(res.headers.etag, url).toBeDefined();
      }
    }
    expect((await get('/assets/small-x1.css')).headers['content-type']).toBe(
      'text/css; charset=utf-8',
    );
    expect((await get('/manifest.webmanifest')).headers['content-type']).toMatch(
      /^application\/manifest\+json/,
    );
    // A file with no compressed sibling has a single answer: no Vary, never compressed on the fly.
    const css = await get('/assets/small-x1.css', { 'accept-encoding': 'br, gzip' });
    expect(css.headers.vary).toBeUndefined();
    expect(css.headers['content-encoding']).toBeUndefined();
  });

  it('reads the worker again when a new one is deployed beside the running server, and nothing else', async () => {
    const next = `${WORKER} // next`;
    const later = new Date(Date.now() + 60_000);
    writeFileSync(path.join(t.distDir, 'sw.js'), next);
    writeFileSync(path.join(t.distDir, 'sw.js.gz'), gzipSync(next));
    utimesSync(path.join(t.distDir, 'sw.js'), later, later);
    writeFileSync(path.join(t.distDir, 'assets/small-x1.css'), 'body{color:red}');
    expect((await get('/sw.js')).body).toBe(next);
    expect((await get('/sw.js', { 'accept-encoding': 'gzip' })).rawPayload).toEqual(gzipSync(next));
    // A hashed asset never changes: the copy in memory is the one served.
    expect((await get('/assets/small-x1.css')).body).toBe('body{}');
  });

  it('reads the worker again when its compressed copy is written after it (a check mid-deployment)', async () => {
    const next = `${WORKER} // deployed in two steps`;
    const first = new Date(Date.now() + 120_000);
    const second = new Date(Date.now() + 180_000);
    writeFileSync(path.join(t.distDir, 'sw.js'), next);
    utimesSync(path.join(t.distDir, 'sw.js'), first, first);
    // A browser's check lands between the two writes: the new file, the old compressed copy.
    expect((await get('/sw.js')).body).toBe(next);
    writeFileSync(path.join(t.distDir, 'sw.js.gz'), gzipSync(next));
    utimesSync(path.join(t.distDir, 'sw.js.gz'), second, second);
    expect((await get('/sw.js', { 'accept-encoding': 'gzip' })).rawPayload).toEqual(gzipSync(next));
  });

  it('serves a file with a query string, and answers an unknown file with the 404 JSON', async () => {
    expect((await get(`${SCRIPT_URL}?v=2`)).body).toBe(SCRIPT);
    const missing = await get('/assets/index-zzz999.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false, statusCode: 404 });
  });
});

describe('Accept-Encoding and If-None-Match reading', () => {
  it('takes a coding named with q above 0, or covered by *', () => {
    expect(accepts('gzip, br', 'br')).toBe(true);
    expect(accepts('GZIP', 'gzip')).toBe(true);
    expect(accepts('br;q=0', 'br')).toBe(false);
    expect(accepts('br ; q=0.0', 'br')).toBe(false);
    expect(accepts('*;q=0.1', 'br')).toBe(true);
    expect(accepts('*, br;q=0', 'br')).toBe(false);
    expect(accepts('*;q=0', 'gzip')).toBe(false);
    expect(accepts('identity', 'gzip')).toBe(false);
  });

  it('compares entity tags weakly, one of a list, or *', () => {
    expect(matchesEtag('"a"', '"a"')).toBe(true);
    expect(matchesEtag('W/"a"', '"a"')).toBe(true);
    expect(matchesEtag('"b" ,  "a"', '"a"')).toBe(true);
    expect(matchesEtag('"b"', '"a"')).toBe(false);
    expect(matchesEtag('a', '"a"')).toBe(false);
    expect(matchesEtag('*', '"a"')).toBe(true);
  });
});
