import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, TEST_ENGINE } from './helpers';

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

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitForHealth(port: number, child: ChildProcess) {
  // Generous: a busy 2-core machine has been seen to take a minute to start a fresh embedded database.
  for (let i = 0; i < 1200; i += 1) {
    if (child.exitCode !== null) throw new Error('server exited');
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return res.json();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become healthy');
}

describe(`the server process (${TEST_ENGINE})`, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-process-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  // Each engine proves its own start-up path; the other engine's case is not declared at all.
  const onPostgres = TEST_ENGINE === 'postgres' ? it : () => {};
  const onPglite = TEST_ENGINE === 'pglite' ? it : () => {};

  onPostgres(
    'migrates an empty PostgreSQL database at start-up and shuts down cleanly',
    async () => {
      // EMPTY, so start-up must run every migration itself.
      const database = await createPostgresDatabase(false);
      try {
        const port = await freePort();
        const server = startServer({
          DATA_DIR: dataDir,
          PORT: String(port),
          DATABASE_URL: database.url,
        });
        try {
          expect(await waitForHealth(port, server.child)).toMatchObject({
            database: 'up',
            engine: 'postgres',
          });
          const search = await fetch(`http://127.0.0.1:${port}/api/health`);
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
      const first = startServer({ DATA_DIR: dataDir, PORT: String(port) });
      try {
        expect(await waitForHealth(port, first.child)).toMatchObject({
          server: 'up',
          database: 'up',
          engine: 'pglite',
        });
        expect(existsSync(path.join(dataDir, 'session-secret'))).toBe(true);
        // The bundle still finds the web app beside the sources (packages/web/dist), built or not.
        if (existsSync(WEB_INDEX)) {
          const page = await fetch(`http://127.0.0.1:${port}/`);
          expect(page.status).toBe(200);
          expect(page.headers.get('content-type')).toMatch(/text\/html/);
        } else {
          expect(first.output()).toContain(WEB_INDEX);
        }

        const second = startServer({ DATA_DIR: dataDir, PORT: String(await freePort()) });
        expect(await second.exited).not.toBe(0);
        expect(second.output()).toMatch(/is in use by another Campus Books process/);
      } finally {
        first.child.kill('SIGTERM');
      }
      expect(await first.exited).toBe(0);
      expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false);

      // The data survives the restart: the same directory opens again.
      const again = startServer({ DATA_DIR: dataDir, PORT: String(port) });
      try {
        await waitForHealth(port, again.child);
      } finally {
        again.child.kill('SIGINT');
      }
      expect(await again.exited).toBe(0);
    },
    240_000,
  );

  it('stops at start-up naming every configuration problem', async () => {
    const bad = startServer({ DATA_DIR: dataDir, PORT: 'x', DATABASE_URL: 'mysql://nope' });
    expect(await bad.exited).toBe(78);
    expect(bad.output()).toMatch(/PORT/);
    expect(bad.output()).toMatch(/DATABASE_URL/);
  });
});
