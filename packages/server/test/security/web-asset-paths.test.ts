import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE, type TestApp } from '../helpers';
import { checkAnswer } from './check-answer';
import { printFigure } from './security-helpers';

const SECRET = 'SECRET-OUTSIDE-THE-BUILT-APP';
const DOT_FILE = 'DOT-FILE-INSIDE-THE-BUILT-APP';
const SCRIPT = `console.log(${JSON.stringify('s'.repeat(2000))});`;

/**
 * The built app's files are served from memory by exact path (plugins/web-assets.ts). Nothing
 * outside the folder, no dot file and no compressed sibling by its own name may be reached, however
 * the path is encoded: dot segments, `%2e%2e`, `..%2f`, double encoding, a trailing slash, a NUL.
 */
describe(`built files: paths that try to leave the folder (${TEST_ENGINE})`, () => {
  let t: TestApp;
  const root = mkdtempSync(path.join(tmpdir(), 'cb-web-paths-'));
  const distDir = path.join(root, 'dist');
  let requests = 0;

  beforeAll(async () => {
    mkdirSync(path.join(distDir, 'assets'), { recursive: true });
    writeFileSync(path.join(root, 'secret.txt'), SECRET);
    writeFileSync(path.join(distDir, '.env'), DOT_FILE);
    writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Campus Books</title>');
    writeFileSync(path.join(distDir, 'assets', 'index-abc123.js'), SCRIPT);
    writeFileSync(path.join(distDir, 'assets', 'index-abc123.js.gz'), gzipSync(SCRIPT));
    t = await createTestApp({}, { webDistDir: distDir });
  });
  afterAll(async () => {
    printFigure(`web asset paths (${TEST_ENGINE})`, { requests });
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  const escapes = [
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/secret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets%2f..%2f..%2fsecret.txt',
    '/%252e%252e/secret.txt',
    '/assets/%252e%252e%252f%252e%252e%252fsecret.txt',
    '/..%5csecret.txt',
    '/assets/..\\..\\secret.txt',
    '/secret.txt',
    '//secret.txt',
    '/.env',
    '/%2eenv',
    '/assets/../.env',
    '/assets/index-abc123.js%00',
    '/assets/index-abc123.js%00.html',
    '/assets/index-abc123.js.gz',
    '/assets/index-abc123.js/',
    '/assets/index-abc123.js/..',
    '/ASSETS/index-abc123.js',
  ];

  it('never answers with a file outside the folder, a dot file or a raw sibling', async () => {
    for (const url of escapes) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url, headers: { 'accept-encoding': 'identity' } });
        requests += 1;
        const label = `${method} ${url}`;
        checkAnswer(res, label);
        expect(res.body, label).not.toContain(SECRET);
        expect(res.body, label).not.toContain(DOT_FILE);
        expect(res.body, label).not.toContain(SCRIPT);
        expect(res.headers['content-encoding'], label).toBeUndefined();
        // A path that names a file gets the 404 JSON; one that does not is the app's (the shell).
        if (res.statusCode === 200)
          expect(res.headers['content-type'], label).toMatch(/^text\/html/);
        else expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
      }
    }
  });

  it('serves the file itself by its plain path, with or without a query string', async () => {
    for (const url of [
      '/assets/index-abc123.js',
      '/assets/index-abc123.js?x=/../../secret.txt',
      '/assets/index-abc123.js?%2e%2e',
    ]) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(SCRIPT);
    }
  });
});
