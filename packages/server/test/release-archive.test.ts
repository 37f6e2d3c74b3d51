import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PRODUCT_VERSION } from '@campus-books/common/version';
import { extract } from 'tar';
import { describe, expect, it } from 'vitest';
import { TEST_ENGINE } from './helpers';
import { freePort } from './support/server-process';
import { temporaryFolder } from './temporary-folders';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BUILT = ['packages/server/dist/server.js', 'packages/web/dist-ssr/entry-server.js'];
const built = BUILT.every((file) => existsSync(path.join(ROOT, file)));
if (!built && TEST_ENGINE === 'pglite') {
  if (process.env.CI === 'true')
    throw new Error(`CI: ${BUILT.join(', ')} must be built (npm test builds)`);
  console.warn('*** Not built (npm run build): SKIPPING the release archive test ***');
}

/**
 * `npm run release`'s archive, installed as a machine without compilers or a build would: extracted,
 * `npm ci --omit=dev` (from the npm cache this checkout's install filled: no network), `npm start`.
 * One engine: the archive is the same for both.
 */
describe('the release archive', () => {
  it.runIf(built && TEST_ENGINE === 'pglite')(
    'installs without dev dependencies and starts with npm start, building nothing',
    async () => {
      const work = temporaryFolder('cb-release-test-');
      const archive = path.join(work, 'release.tar.gz');
      execFileSync(process.execPath, ['packages/server/scripts/release.mjs', '--out', archive], {
        cwd: ROOT,
        stdio: 'pipe',
      });
      await extract({ file: archive, cwd: work });
      const home = path.join(work, `campus-books-${PRODUCT_VERSION}`);
      // Sources and build tools are not in it.
      expect(existsSync(path.join(home, 'packages/server/src/app.ts'))).toBe(false);
      expect(existsSync(path.join(home, 'packages/web/src'))).toBe(false);
      // From the packages the checkout's own install left in npm's cache; one the cache lost or
      // holds damaged (an install stopped half-way) is fetched again rather than failing the test.
      execFileSync('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], {
        cwd: home,
        stdio: 'pipe',
        env: { ...process.env, NODE_ENV: 'production' },
      });
      for (const tool of ['typescript', 'vite', 'tsx', 'vitest', 'esbuild']) {
        expect(existsSync(path.join(home, 'node_modules', tool)), tool).toBe(false);
      }

      const port = await freePort();
      const child = spawn('npm', ['start'], {
        cwd: home,
        detached: true, // its own process group: npm, the shell and the server stop together
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: path.join(work, 'data'),
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      try {
        let health: unknown;
        for (let tries = 0; tries < 600 && health === undefined; tries++) {
          expect(child.exitCode, output).toBeNull();
          health = await fetch(`http://127.0.0.1:${port}/api/health`)
            .then((res) => (res.ok ? res.json() : undefined))
            .catch(() => undefined);
          if (health === undefined) await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(health).toMatchObject({ status: 'up', engine: 'pglite', version: PRODUCT_VERSION });
        const home_ = await fetch(`http://127.0.0.1:${port}/`);
        expect(home_.status).toBe(200);
        expect(await home_.text()).toMatch(/<h1/);
        expect(output).not.toMatch(/vite|tsc|build/i);
      } finally {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        process.kill(-child.pid!, 'SIGTERM');
        const killer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 15_000);
        await exited;
        clearTimeout(killer);
      }
    },
    300_000,
  );
});
