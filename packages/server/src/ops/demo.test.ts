import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIsbn } from '@campus-books/common/isbn';
import { createTestApp, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { listings } from '../db/schema';
import { DEMO_MARKER, DemoRefused, demoDataDir, demoIsbn, seedDemo } from './demo';

describe('the demo data folder', () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'cb-demo-'));
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('is ./data-demo by default, beside the real ./data', () => {
    expect(demoDataDir({}, cwd)).toBe(path.join(cwd, 'data-demo'));
  });

  it('refuses the real DATA_DIR, a folder inside it, and a folder holding it', () => {
    expect(() => demoDataDir({ DEMO_DATA_DIR: './data' }, cwd)).toThrow(DemoRefused);
    expect(() => demoDataDir({ DEMO_DATA_DIR: 'data/' }, cwd)).toThrow(DemoRefused);
    expect(() => demoDataDir({ DATA_DIR: '/srv/books', DEMO_DATA_DIR: '/srv/books' }, cwd)).toThrow(
      /never runs on the real data folder/,
    );
    expect(() => demoDataDir({ DATA_DIR: 'x/data', DEMO_DATA_DIR: 'x/data/demo' }, cwd)).toThrow(
      DemoRefused,
    );
    expect(() => demoDataDir({ DATA_DIR: 'x/data', DEMO_DATA_DIR: 'x' }, cwd)).toThrow(DemoRefused);
  });

  it('refuses a non-empty folder that is not a demo, and reuses its own', () => {
    const other = path.join(cwd, 'other');
    mkdirSync(other);
    writeFileSync(path.join(other, 'session-secret'), 'x');
    expect(() => demoDataDir({ DEMO_DATA_DIR: other }, cwd)).toThrow(/not a demo/);
    const own = path.join(cwd, 'own');
    mkdirSync(own);
    writeFileSync(path.join(own, DEMO_MARKER), '');
    writeFileSync(path.join(own, 'session-secret'), 'x');
    expect(demoDataDir({ DEMO_DATA_DIR: own }, cwd)).toBe(own);
  });

  it('gives books valid ISBN-13s', () => {
    for (let n = 0; n < 100; n += 1)
      expect(parseIsbn(demoIsbn(n))).toEqual({ ok: true, isbn13: demoIsbn(n) });
  });
});

// The demo always runs on the embedded database (demo.script.ts drops DATABASE_URL): its seeding is
// tested there only, not on a PostgreSQL server it never uses.
describe.runIf(TEST_ENGINE === 'pglite')('seeding the demo campus (pglite)', () => {
  let t: TestApp;
  let first: Awaited<ReturnType<typeof seedDemo>>;
  beforeAll(async () => {
    t = await createTestApp();
    first = await seedDemo(t.app);
  }, 120_000);
  afterAll(() => t.close());

  it('fills a fresh database with about 200 listings across subjects, some sold, some with ISBNs', async () => {
    expect(first.created).toBe(200);
    expect(first.listings).toBe(200);
    const rows = await t.database.db.select().from(listings);
    expect(rows).toHaveLength(200);
    expect(new Set(rows.map((r) => r.subject)).size).toBeGreaterThanOrEqual(25);
    expect(new Set(rows.map((r) => r.major)).size).toBeGreaterThanOrEqual(25);
    expect(new Set(rows.map((r) => r.userId)).size).toBeGreaterThanOrEqual(5);
    const sold = rows.filter((r) => r.status === 'sold').length;
    expect(sold).toBeGreaterThan(10);
    expect(sold).toBeLessThan(60);
    const withIsbn = rows.filter((r) => r.isbn);
    expect(withIsbn.length).toBeGreaterThan(30);
    for (const r of withIsbn) expect(parseIsbn(r.isbn!).ok).toBe(true);
  });

  it('stores a real cover for every listing, served by the image route', async () => {
    const [row] = await t.database.db.select().from(listings).limit(1);
    const res = await t.app.inject({ url: row!.imageUrls[0]!.replace('1280', '320') });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.rawPayload.length).toBeGreaterThan(1000);
  });

  it('makes a demo account that signs in with the printed password', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: first.email, password: first.password },
    });
    expect(res.statusCode).toBe(200);
    const mine = await t.app.inject({
      url: '/api/auth/me',
      headers: { cookie: String(res.headers['set-cookie']).split(';')[0]! },
    });
    expect(mine.statusCode).toBe(200);
  });

  it('adds nothing when run again', async () => {
    const again = await seedDemo(t.app);
    expect(again.created).toBe(0);
    expect(again.listings).toBe(200);
    expect(await t.database.db.$count(listings)).toBe(200);
  }, 60_000);
});
