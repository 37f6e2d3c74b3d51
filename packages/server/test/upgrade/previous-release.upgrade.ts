import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_VERSION } from '@campus-books/common/version';
import { verifyArchive } from '../../src/ops/archive-reader';
import { listingBody } from '../listing-fixtures';
import {
  freePort,
  spawnServer,
  stopServer,
  waitHealthy,
  type ServerProcess,
} from '../support/server-process';
import { countRows, countsOf, expectedCounts, storedFiles, type Place } from './inventory';
import {
  backupWithPreviousRelease,
  PREVIOUS_RELEASE,
  previousReleaseHome,
  spawnPreviousServer,
} from './previous-release';
import {
  expectedAfterUpgrade,
  fillPreviousRelease,
  moderatorEmail,
  observe,
  type Observation,
  type ReleaseData,
} from './release-data';

/**
 * The upgrade from the previous release (CHANGELOG.md, docs/operations.md "Upgrades"): 0.2.0, built
 * from its commit, is filled through its own API with data of every kind; it is then upgraded in
 * place to this code (the documented stop of every server: 0.2.0 → 0.4.0 is "stop all servers"),
 * and its backup, taken by 0.2.0's own command, is restored into an empty installation of this
 * code. Every row, stored file, session, profile and the live alert of a duplicate pair must be there.
 */

const ADMIN_URL = process.env.TEST_DATABASE_URL;
if (!ADMIN_URL) {
  console.warn('*** TEST_DATABASE_URL is not set: SKIPPING the upgrade test on PostgreSQL ***');
}
const SERVER_ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const SESSION_SECRET_FILE = 'session-secret';

/** Settings every server of the test has, old and new: limits its sign-ups never meet, no internet. */
const commonEnv = (tag: string) => ({
  LOG_LEVEL: 'warn',
  BOOK_LOOKUP: 'off',
  MODERATOR_EMAILS: moderatorEmail(tag),
  DATABASE_POOL_SIZE: '5',
  RATE_LIMIT_SIGNUP_PER_IP: '100000',
  RATE_LIMIT_SIGNIN_PER_IP: '100000',
  RATE_LIMIT_MAIL_PER_IP: '100000',
  RATE_LIMIT_LISTINGS_PER_ACCOUNT: '100000',
});

async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cb_upgrade_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: ADMIN_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** An installation: its DATA_DIR and, on PostgreSQL, its own database. */
interface Installation {
  dataDir: string;
  place: Place;
  env: Record<string, string>;
}

const cleanups: (() => Promise<void> | void)[] = [];
const servers: ServerProcess[] = [];

async function installation(engine: 'pglite' | 'postgres', tag: string): Promise<Installation> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-upgrade-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = { ...commonEnv(tag), DATA_DIR: dataDir };
  if (engine === 'pglite') return { dataDir, env, place: { engine, dataDir } };
  const database = await createDatabase();
  cleanups.push(() => database.drop());
  env.DATABASE_URL = database.url;
  return { dataDir, env, place: { engine, url: database.url } };
}

/** This code's server (its sources, as `npm run dev` and the e2e suite run it), healthy. */
async function startNewServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const server = spawnServer(port, { env: { ...env, PUBLIC_URL: `http://127.0.0.1:${port}` } });
  servers.push(server);
  await waitHealthy(server, { timeoutMs: 240_000 });
  const health = (await (await fetch(`${server.url}/api/health`)).json()) as { version: string };
  expect(health.version).toBe(PRODUCT_VERSION);
  return server;
}

/** `npm run restore -- <file>` of this code, with the installation's environment. */
async function restoreWithThisRelease(file: string, env: Record<string, string>) {
  try {
    await run(process.execPath, ['--import', 'tsx', 'src/ops/cli.ts', 'restore', file], {
      cwd: SERVER_ROOT,
      env: { ...process.env, NODE_ENV: 'production', ...env },
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const e = error as Error & { stdout?: string; stderr?: string };
    throw new Error(`restore failed:\n${e.stdout}\n${e.stderr}`);
  }
}

interface PreviousInstallation {
  home: string;
  tag: string;
  old: Installation;
  data: ReleaseData;
  before: Observation;
  backup: string;
  /** Rows and stored files as the previous release left them, its server stopped. */
  rows: Record<string, number>;
  files: Record<string, string>;
}

/**
 * The previous release on a new installation, filled through its API, backed up with its own
 * command while it runs, then stopped (CHANGELOG: 0.2.0 → 0.4.0 stops every server).
 */
async function runPreviousRelease(engine: 'pglite' | 'postgres'): Promise<PreviousInstallation> {
  const home = await previousReleaseHome();
  const tag = `${engine}.${randomUUID().slice(0, 6)}`;
  const old = await installation(engine, tag);
  const port = await freePort();
  const server = spawnPreviousServer(home, port, {
    ...old.env,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  servers.push(server);
  await waitHealthy(server);
  const data = await fillPreviousRelease(server.url, old.dataDir, tag);
  const before = await observe(server.url, data);
  // The fill made what it meant to: the duplicate pair among the alerts, photos, a moderation log.
  expect(before.alerts.items.map((a) => a._id).sort()).toEqual(
    [data.alertPair.paused, data.alertPair.live, data.otherAlert].sort(),
  );
  expect(Object.keys(before.photos)).toHaveLength(3);
  expect(before.moderationLog.entries).toHaveLength(1);
  expect(before.saved.ids).toHaveLength(2);
  const backup = path.join(old.dataDir, '..', `${path.basename(old.dataDir)}-backup.tar`);
  cleanups.push(() => rmSync(backup, { force: true }));
  await backupWithPreviousRelease(home, backup, server.url, {
    ...old.env,
    PORT: String(port),
  });
  expect(await stopServer(server)).toBe(0);
  const rows = await countRows(old.place);
  expect(rows.alerts).toBe(3);
  return { home, tag, old, data, before, backup, rows, files: await storedFiles(old.dataDir) };
}

/** What the new release shows must be what the previous one showed, the duplicate alert folded. */
async function expectKept(base: string, previous: PreviousInstallation) {
  const after = await observe(base, previous.data);
  expect(after).toEqual(expectedAfterUpgrade(previous.before, previous.data));
  // The pair is one alert: the live one the student changed last, not the older paused copy.
  const pair = after.alerts.items.filter((a) => a.searchTerm === 'Linear Algebra');
  expect(pair).toEqual([
    expect.objectContaining({ _id: previous.data.alertPair.live, paused: false, digest: true }),
  ]);
  // Signed in with the cookies 0.2.0 set: the sessions were kept.
  for (const who of [after.seller, after.buyer, after.moderator]) expect(who.status).toBe(200);
}

/** Every file `expected` lists is in the installation's store with the same bytes. */
async function expectFiles(dataDir: string, expected: Record<string, string>) {
  const now = await storedFiles(dataDir);
  expect(Object.keys(expected).length).toBeGreaterThan(0);
  expect(Object.fromEntries(Object.keys(expected).map((key) => [key, now[key]]))).toEqual(expected);
}

/**
 * The previous release's backup restored into an empty installation of this code (the session
 * secret copied as docs/operations.md says to keep it), then served by this code.
 */
async function restoreIntoThisRelease(
  engine: 'pglite' | 'postgres',
  previous: PreviousInstallation,
) {
  const manifest = await verifyArchive(previous.backup);
  const target = await installation(engine, previous.tag);
  copyFileSync(
    path.join(previous.old.dataDir, SESSION_SECRET_FILE),
    path.join(target.dataDir, SESSION_SECRET_FILE),
  );
  await restoreWithThisRelease(previous.backup, target.env);
  const server = await startNewServer(target.env);
  await expectKept(server.url, previous);
  expect(await stopServer(server)).toBe(0);
  const archived = Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows]));
  const expected = expectedCounts(archived);
  expect(countsOf(await countRows(target.place), expected)).toEqual(expected);
  await expectFiles(
    target.dataDir,
    Object.fromEntries(manifest.files.map((f) => [f.key, f.sha256])),
  );
}

afterAll(async () => {
  await Promise.all(servers.map((server) => stopServer(server, 5_000)));
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe(`an upgrade from the previous release (${PREVIOUS_RELEASE.version}, ${PREVIOUS_RELEASE.commit.slice(0, 7)})`, () => {
  beforeAll(async () => {
    await previousReleaseHome(); // clone, install and build once (cached between local runs)
  }, 900_000);

  it('on the embedded database, every server stopped (CHANGELOG: stop all servers): in place, then its backup restored, keeps every row, file, session and setting and the live alert of a duplicate pair', async () => {
    const previous = await runPreviousRelease('pglite');
    const server = await startNewServer(previous.old.env);
    await expectKept(server.url, previous);
    expect(await stopServer(server)).toBe(0);
    const expected = expectedCounts(previous.rows);
    expect(countsOf(await countRows(previous.old.place), expected)).toEqual(expected);
    await expectFiles(previous.old.dataDir, previous.files);

    await restoreIntoThisRelease('pglite', previous);
  });

  it.runIf(ADMIN_URL)(
    'on PostgreSQL, every server stopped (CHANGELOG: stop all servers), then two new servers: no 5xx and no acknowledged write lost under reads and writes; in place and restored, everything kept',
    async () => {
      const previous = await runPreviousRelease('postgres');
      // The documented stop: the old server is down; one new server starts (it migrates), then another.
      const first = await startNewServer(previous.old.env);
      await expectKept(first.url, previous);
      const second = await startNewServer(previous.old.env);
      await expectKept(second.url, previous);
      // Counted before the load below, whose writes change words and mail rows.
      const expected = expectedCounts(previous.rows);
      expect(countsOf(await countRows(previous.old.place), expected)).toEqual(expected);
      await expectFiles(previous.old.dataDir, previous.files);

      const load = await readsAndWrites([first.url, second.url], previous, 4_000);
      expect(load.writes).toBeGreaterThan(0);
      expect(load.failures).toEqual([]);
      expect(load.lost).toEqual([]);
      expect(await stopServer(first)).toBe(0);
      expect(await stopServer(second)).toBe(0);

      await restoreIntoThisRelease('postgres', previous);
    },
  );
});

/**
 * Reads and writes through both new servers in turn for `ms` (bounded loops, loopback), with the
 * sessions 0.2.0 signed: the seller renames their listing and the buyer changes their other
 * alert's maximum price (numbered writes); searches, the listing and the alerts are read. Every
 * answer must be below 500, every write acknowledged, and the other server must read the last
 * acknowledged value of each (or a later one).
 */
async function readsAndWrites(bases: string[], previous: PreviousInstallation, ms: number) {
  const { seller, buyer, listings, otherAlert } = previous.data;
  const imageUrls = previous.before.listings.listed.imageUrls as string[];
  const writers = [
    {
      write: (base: string, n: number) =>
        fetch(`${base}/api/listing/update/${listings.listed}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: seller.cookie },
          body: JSON.stringify(listingBody({ name: `Rolled n${n}`, imageUrls })),
        }),
      read: (base: string) => fetch(`${base}/api/listing/get/${listings.listed}`),
      valueOf: (body: unknown) => Number(/n(\d+)$/.exec((body as { name: string }).name)?.[1] ?? 0),
    },
    {
      write: (base: string, n: number) =>
        fetch(`${base}/api/alerts/update/${otherAlert}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: buyer.cookie },
          body: JSON.stringify({ searchTerm: 'Organic Chemistry', maxPrice: 40 + n }),
        }),
      read: (base: string) =>
        fetch(`${base}/api/alerts/get`, { headers: { cookie: buyer.cookie } }),
      valueOf: (body: unknown) =>
        Number(
          (body as { _id: string; maxPrice: number }[]).find((a) => a._id === otherAlert)!.maxPrice,
        ) - 40,
    },
  ];
  const until = Date.now() + ms;
  const failures: string[] = [];
  let writes = 0;
  const acked = writers.map(() => 0);
  await Promise.all(
    writers.map(async (writer, w) => {
      let sent = 0;
      for (let step = 0; Date.now() < until && step < 600; step += 1) {
        const base = bases[(step + w) % bases.length]!;
        const res =
          step % 3 === 0
            ? await writer.write(base, ++sent)
            : step % 3 === 1
              ? await fetch(`${base}/api/listing/get?searchTerm=linear`)
              : await writer.read(base);
        await res.arrayBuffer();
        if (!res.ok) failures.push(`${res.status} at step ${step} of writer ${w} on ${base}`);
        else if (step % 3 === 0) {
          acked[w] = sent;
          writes += 1;
        }
      }
    }),
  );
  const lost: string[] = [];
  for (const [w, writer] of writers.entries()) {
    for (const base of bases) {
      const value = writer.valueOf(await (await writer.read(base)).json());
      if (value < acked[w]!)
        lost.push(`writer ${w} on ${base}: read ${value}, acknowledged ${acked[w]}`);
    }
  }
  return { writes, failures, lost };
}
