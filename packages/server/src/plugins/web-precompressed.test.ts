import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config/config';
import type { Database } from '../db/database';
import { openTestDatabase, TEST_ENGINE } from '../../test/helpers';

const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

describe(`built assets (${TEST_ENGINE})`, () => {
  let app: FastifyInstance;
  let database: Database;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-web-data-'));
  const distDir = mkdtempSync(path.join(tmpdir(), 'cb-web-dist-'));

  beforeAll(async () => {
    writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Campus Books</title>');
    mkdirSync(path.join(distDir, 'assets'));
    const script = path.join(distDir, 'assets', 'index-abc123.js');
    writeFileSync(script, SCRIPT);
    writeFileSync(`${script}.br`, brotliCompressSync(SCRIPT));
    writeFileSync(`${script}.gz`, gzipSync(SCRIPT));
    database = await openTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    app = await buildApp({ config, database, serveWeb: true, webDistDir: distDir });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(distDir, { recursive: true, force: true });
  });

  it('serves the precompressed brotli file with an immutable cache header', async () => {
    const res = await app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.equals(brotliCompressSync(SCRIPT))).toBe(true);
  });

  it('serves the gzip file to a client without brotli, and the plain file to one without either', async () => {
    const gz = await app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({ url: '/assets/index-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });
});
