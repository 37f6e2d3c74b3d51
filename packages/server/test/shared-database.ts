import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Listing } from '@campus-books/common/listing.schemas';
import { routeCaller } from './api-caller';
import { buildApp, type AppOptions } from '../src/app';
import { loadConfig } from '../src/config/config';
import { openDatabase, type Database } from '../src/db/database';
import {
  createPostgresDatabase,
  createUser,
  openTestDatabase,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from './helpers';
import { listingBody } from './listing-fixtures';

/**
 * Two handles on one fresh, migrated database, as two app servers have: two pools (and two LISTEN
 * connections) on PostgreSQL; on PGlite, which one process owns, the same handle twice.
 */
export async function openSharedDatabase(): Promise<{
  first: Database;
  second: Database;
  close(): Promise<void>;
}> {
  if (TEST_ENGINE === 'pglite') {
    const database = await openTestDatabase();
    return { first: database, second: database, close: () => database.close() };
  }
  const target = await createPostgresDatabase(true);
  const first = await openDatabase({ engine: 'postgres', url: target.url, poolSize: 5 });
  const second = await openDatabase({ engine: 'postgres', url: target.url, poolSize: 5 });
  return {
    first,
    second,
    close: async () => {
      await first.close();
      await second.close();
      await target.drop();
    },
  };
}

/** The app on a given database handle (one of two "servers"), with its own DATA_DIR. */
export async function createAppOn(
  database: Database,
  env: Record<string, string> = {},
  jobs: AppOptions['jobs'] = { poll: false },
  /** Serve a web app (its folder and server build), as createWebTestApp does. */
  web: Pick<AppOptions, 'webDistDir' | 'webServerEntry'> = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 'a-secret-shared-by-every-app-server-of-the-test',
    ...env,
  });
  const app = await buildApp({
    config,
    database,
    jobs,
    ...(web.webDistDir ? { serveWeb: true, ...web } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    config,
    dataDir,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Two app servers ("A" and "B") on one fresh database, each with its own caches and DATA_DIR. */
export async function openTwoAppServers(): Promise<{
  a: TestApp;
  b: TestApp;
  close(): Promise<void>;
}> {
  const shared = await openSharedDatabase();
  const a = await createAppOn(shared.first);
  const b = await createAppOn(shared.second);
  return {
    a,
    b,
    close: async () => {
      await a.close();
      await b.close();
      await shared.close();
    },
  };
}

/**
 * Two app servers and a seller signed in on A, opened before the suite's tests and closed after
 * them: the tests read `a`, `b` and `seller` from the object returned.
 */
export function twoAppServersForSuite(): { a: TestApp; b: TestApp; seller: TestUser } {
  const suite = {} as { a: TestApp; b: TestApp; seller: TestUser };
  let servers: Awaited<ReturnType<typeof openTwoAppServers>> | undefined;
  beforeAll(async () => {
    servers = await openTwoAppServers();
    Object.assign(suite, { a: servers.a, b: servers.b, seller: await createUser(servers.a) });
  });
  afterAll(async () => {
    await servers?.close();
  });
  return suite;
}

/** What a cache suite renames a listing to, and how it reads the names B answers. */
export interface RenameRace {
  /** How many renames. */
  count: number;
  /** The listing's name at the rename numbered `i` (from 1). */
  name(i: number): string;
  /** The listing's course, kept by each rename. */
  course?: { subject: string; courseNumber: string };
  /** What B answers (and keeps) for the rename's name: its listings' names or titles. */
  readOnB(name: string): Promise<string[]>;
  /** Checks what B answered before the rename (by default nothing is asserted). */
  before?(names: string[]): void;
}

/**
 * The cache suites' race: `count` renames of `listing` through A, each after B has answered (and
 * kept) what the suite reads, each read through B as soon as A acknowledged it. Answers how many
 * of those reads did not show the new name: a copy B kept past the write.
 */
export async function staleReadsAfterRenames(
  { a, seller }: { a: TestApp; seller: TestUser },
  listing: Listing,
  race: RenameRace,
): Promise<number> {
  let stale = 0;
  for (let i = 1; i <= race.count; i += 1) {
    const name = race.name(i);
    race.before?.(await race.readOnB(name));
    const res = await routeCaller(() => a)('POST /api/listing/update/:id', {
      as: seller,
      params: { id: listing._id },
      body: race.course
        ? listingBody({ ...race.course, name, imageUrls: listing.imageUrls })
        : listingBody({ name, imageUrls: listing.imageUrls }),
    });
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    if ((await race.readOnB(name)).join() !== name) stale += 1;
  }
  return stale;
}
