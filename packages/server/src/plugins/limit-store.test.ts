import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config/config';
import { openDatabase, type Database } from '../db/database';
import {
  createPostgresDatabase,
  createUser,
  openTestDatabase,
  TEST_ENGINE,
  type TestApp,
} from '../../test/helpers';
import {
  createDatabaseStore,
  createMemoryStore,
  withMemoryFallback,
  type LimitStore,
} from './limit-store';

const HOUR = 60 * 60_000;

/** Two handles on ONE database: the same PGlite object, or two pools to one PostgreSQL database. */
async function twoHandles(): Promise<{ a: Database; b: Database; close(): Promise<void> }> {
  if (TEST_ENGINE === 'pglite') {
    const a = await openTestDatabase();
    return { a, b: a, close: () => a.close() };
  }
  const target = await createPostgresDatabase(true);
  const a = await openDatabase({ engine: 'postgres', url: target.url, poolSize: 5 });
  const b = await openDatabase({ engine: 'postgres', url: target.url, poolSize: 5 });
  return {
    a,
    b,
    close: async () => {
      await a.close();
      await b.close();
      await target.drop();
    },
  };
}

describe(`the shared rate-limit store (${TEST_ENGINE})`, () => {
  let handles: Awaited<ReturnType<typeof twoHandles>>;
  let now = Date.UTC(2026, 0, 5, 9);
  const clock = () => now;
  beforeAll(async () => {
    handles = await twoHandles();
  });
  afterAll(() => handles.close());

  it('counts one key across two handles up to max, then refuses until the window ends', async () => {
    const a = createDatabaseStore(handles.a.db, clock);
    const b = createDatabaseStore(handles.b.db, clock);
    const results = [];
    for (const store of [a, b, a, b, a]) results.push(await store.take('t:window', 3, HOUR));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results[2]!.count).toBe(3);
    expect(results[3]!.resetAt).toBe(now + HOUR);

    now += HOUR - 1;
    expect((await b.take('t:window', 3, HOUR)).allowed).toBe(false);
    now += 1;
    const fresh = await b.take('t:window', 3, HOUR);
    expect(fresh).toMatchObject({ allowed: true, count: 1, resetAt: now + HOUR });
  });

  it('never counts past max under 25 concurrent attempts', async () => {
    const stores = [
      createDatabaseStore(handles.a.db, clock),
      createDatabaseStore(handles.b.db, clock),
    ];
    const hits = await Promise.all(
      Array.from({ length: 25 }, (_, i) => stores[i % 2]!.take('t:concurrent', 10, HOUR)),
    );
    expect(hits.filter((h) => h.allowed)).toHaveLength(10);
  });

  it('gives an attempt back once, and only in its own window', async () => {
    const store = createDatabaseStore(handles.a.db, clock);
    const first = await store.take('t:release', 2, HOUR);
    await store.take('t:release', 2, HOUR);
    expect((await store.take('t:release', 2, HOUR)).allowed).toBe(false);
    await first.release();
    expect((await store.take('t:release', 2, HOUR)).allowed).toBe(true);

    const old = await store.take('t:release-old', 1, HOUR);
    now += HOUR;
    await store.take('t:release-old', 1, HOUR);
    await old.release(); // the old window's attempt: the new window keeps its count
    expect((await store.take('t:release-old', 1, HOUR)).allowed).toBe(false);
  });

  it('sweeps the counters whose window is over', async () => {
    const store = createDatabaseStore(handles.a.db, clock);
    await store.take('t:sweep-short', 5, 1000);
    await store.take('t:sweep-long', 5, HOUR);
    now += 1000;
    expect(await store.sweep()).toBeGreaterThanOrEqual(1);
    expect((await store.take('t:sweep-long', 5, HOUR)).count).toBe(2);
    expect((await store.take('t:sweep-short', 5, 1000)).count).toBe(1);
  });
});

describe('the in-memory fallback', () => {
  it('keeps limiting while the database does not answer, says so once, and returns to it', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const database = createMemoryStore(clock);
    let down = false;
    const flaky: LimitStore = {
      take: (...args) =>
        down ? Promise.reject(new Error('connect ECONNREFUSED')) : database.take(...args),
      sweep: () => (down ? Promise.reject(new Error('connect ECONNREFUSED')) : database.sweep()),
    };
    const told: string[] = [];
    const store = withMemoryFallback(flaky, {
      clock,
      retryAfterMs: 5000,
      onUnavailable: () => told.push('unavailable'),
      onRecovered: () => told.push('recovered'),
    });

    down = true;
    const hits = [];
    for (let i = 0; i < 4; i++) hits.push(await store.take('k', 3, HOUR));
    expect(hits.map((h) => h.allowed)).toEqual([true, true, true, false]);
    expect(store.degraded).toBe(true);
    expect(told).toEqual(['unavailable']);

    down = false;
    now += 5000;
    expect((await store.take('k', 3, HOUR)).count).toBe(1); // the database's own count
    expect(store.degraded).toBe(false);
    expect(told).toEqual(['unavailable', 'recovered']);
  });
});

/** The app with the database's rate-limit table taken away answers from memory, not with a 500. */
describe(`the rate limits when their table does not answer (${TEST_ENGINE})`, () => {
  it('limits in memory and logs once', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-test-'));
    const database = await openTestDatabase();
    const warnings: string[] = [];
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAIL_PER_ADDRESS: '2',
    });
    const app = await buildApp({
      config,
      database,
      logger: {
        level: 'warn',
        stream: { write: (line: string) => warnings.push(JSON.parse(line).msg) },
      },
    });
    await app.ready();
    try {
      await app.database.db.execute(sql`ALTER TABLE rate_limits RENAME TO rate_limits_away`);
      const codes = [];
      for (let i = 0; i < 3; i++) {
        const res = await app.inject({
          method: 'POST',
          url: '/api/auth/forgot-password',
          payload: { email: 'away@richmond.edu' },
        });
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([200, 200, 429]);
      expect(warnings.filter((m) => m.startsWith('rate limits:'))).toHaveLength(1);
    } finally {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe(`two app servers on one database (${TEST_ENGINE})`, () => {
  let handles: Awaited<ReturnType<typeof twoHandles>>;
  let apps: FastifyInstance[];
  let dataDir: string;
  beforeAll(async () => {
    handles = await twoHandles();
    dataDir = mkdtempSync(path.join(tmpdir(), 'cb-test-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_SIGNIN_PER_ACCOUNT: '4',
    });
    apps = [
      await buildApp({ config, database: handles.a }),
      await buildApp({ config, database: handles.b }),
    ];
    await Promise.all(apps.map((app) => app.ready()));
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await handles.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('share one count: the 429 comes at the configured count, not twice it', async () => {
    const testApp = { app: apps[0]!, database: handles.a } as TestApp;
    const user = await createUser(testApp);
    const codes = [];
    for (let i = 0; i < 6; i++) {
      const res = await apps[i % 2]!.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: user.email, password: `wrong-${i}` },
        remoteAddress: `10.20.0.${i}`,
      });
      codes.push(res.statusCode);
    }
    console.log(`[figure] shared store: two app servers, per-account limit 4 → ${codes.join(' ')}`);
    expect(codes).toEqual([401, 401, 401, 401, 429, 429]);
  });
});
