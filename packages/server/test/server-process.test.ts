import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, TEST_ENGINE } from './helpers';
import { freePort, spawnServer, waitHealthy, type ServerProcess } from './support/server-process';

const SERVER_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB_INDEX = path.resolve(SERVER_ROOT, '../web/dist/index.html');
/**
 * What `npm start` runs: the server bundled by scripts/build.mjs (`npm run build`), in plain node.
 * Built here into a folder of this run's own (dist/ may be rebuilt meanwhile); it must live inside
 * packages/server, like dist/, for Node to find the server's packages.
 */
const BUNDLE_DIR = path.join(SERVER_ROOT, 'dist', `test-${process.pid}-${TEST_ENGINE}`);
const SERVER = path.join(BUNDLE_DIR, 'server.js');

beforeAll(() => {
  execFileSync(
    process.execPath,
    [path.join(SERVER_ROOT, 'scripts/build.mjs'), '--outdir', BUNDLE_DIR],
    {
      stdio: 'pipe',
    },
  );
});
afterAll(() => rmSync(BUNDLE_DIR, { recursive: true, force: true }));

/** The bundle of this run on `port`, not yet healthy. */
const startBundle = (port: number, env: Record<string, string>) =>
  spawnServer(port, { entry: SERVER, env });

/** Waits for /api/health and returns what it answers. */
async function healthOf(server: ServerProcess) {
  await waitHealthy(server);
  return (await fetch(`${server.url}/api/health`)).json();
}

describe(`the server process (${TEST_ENGINE})`, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-process-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  // Each engine proves its own start-up path; the other engine's case is not declared at all.
  const onPostgres = it.runIf(TEST_ENGINE === 'postgres');
  const onPglite = it.runIf(TEST_ENGINE === 'pglite');

  onPostgres(
    'migrates an empty PostgreSQL database at start-up and shuts down cleanly',
    async () => {
      // EMPTY, so start-up must run every migration itself.
      const database = await createPostgresDatabase(false);
      try {
        const port = await freePort();
        const server = startBundle(port, { DATA_DIR: dataDir, DATABASE_URL: database.url });
        try {
          expect(await healthOf(server)).toMatchObject({
            database: 'up',
            engine: 'postgres',
          });
          const search = await fetch(`${server.url}/api/health`);
          expect(search.status).toBe(200);
        } finally {
          server.child.kill('SIGTERM');
        }
        expect(await server.exited).toBe(0);
      } finally {
        await database.drop();
      }
    },
    240_000,
  );

  onPglite(
    'starts with no configuration, refuses a second server on the same DATA_DIR, and shuts down cleanly',
    async () => {
      const port = await freePort();
      const first = startBundle(port, { DATA_DIR: dataDir });
      try {
        expect(await healthOf(first)).toMatchObject({
          server: 'up',
          database: 'up',
          engine: 'pglite',
        });
        expect(existsSync(path.join(dataDir, 'session-secret'))).toBe(true);
        // The bundle still finds the web app beside the sources (packages/web/dist), built or not.
        if (existsSync(WEB_INDEX)) {
          const page = await fetch(`${first.url}/`);
          expect(page.status).toBe(200);
          expect(page.headers.get('content-type')).toMatch(/text\/html/);
        } else {
          expect(first.output()).toContain(WEB_INDEX);
        }

        const second = startBundle(await freePort(), { DATA_DIR: dataDir });
        expect(await second.exited).not.toBe(0);
        expect(second.output()).toMatch(/is in use by another Campus Books process/);
      } finally {
        first.child.kill('SIGTERM');
      }
      expect(await first.exited).toBe(0);
      expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false);

      // The data survives the restart: the same directory opens again.
      const again = startBundle(port, { DATA_DIR: dataDir });
      try {
        await waitHealthy(again);
      } finally {
        again.child.kill('SIGINT');
      }
      expect(await again.exited).toBe(0);
    },
    240_000,
  );

  // The operator's commands are bundled beside the server (npm run backup runs dist/ops.js).
  it('bundles the ops commands, which run in plain node', () => {
    const usage = spawnSync(process.execPath, [path.join(BUNDLE_DIR, 'ops.js')], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
    });
    expect(usage.status).toBe(64);
    expect(usage.stdout).toContain('npm run backup -- <file>');
    expect(existsSync(path.join(BUNDLE_DIR, 'demo.js'))).toBe(true);
  });

  it('stops at start-up naming every configuration problem', async () => {
    const bad = startBundle(0, { DATA_DIR: dataDir, PORT: 'x', DATABASE_URL: 'mysql://nope' });
    expect(await bad.exited).toBe(78);
    expect(bad.output()).toMatch(/PORT/);
    expect(bad.output()).toMatch(/DATABASE_URL/);
  });
});
