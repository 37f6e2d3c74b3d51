import { execFile } from 'node:child_process';
import { existsSync, rmSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { spawnServer, type ServerProcess } from '../support/server-process';

/**
 * Test support: the previous release, built from its commit in a clone of this repository, run as
 * an operator runs it (`npm run build`, then the bundle). CI clones may lack tags: the commit is named.
 */
export const PREVIOUS_RELEASE = {
  version: '0.2.0',
  commit: '3515be37ab878c66612be70945f84ae8a9f7f0b0',
} as const;

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const run = promisify(execFile);

async function sh(command: string, args: string[], cwd: string) {
  try {
    await run(command, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: buildEnv() });
  } catch (error) {
    const e = error as Error & { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${e.stdout}\n${e.stderr}`);
  }
}

/** This process's environment without the test runner's settings, which the old build must not read. */
function buildEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('VITEST') || name === 'TEST_DB_ENGINE' || name === 'NODE_ENV')
      delete env[name];
  }
  return env;
}

/**
 * The folder of the built previous release. A built copy is kept under the OS temporary folder,
 * keyed by the commit, so a second run on this machine skips the clone, install and build (minutes).
 */
export async function previousReleaseHome(): Promise<string> {
  const home = path.join(tmpdir(), `campus-books-release-${PREVIOUS_RELEASE.commit}`);
  const builtMark = path.join(home, '.built');
  if (existsSync(builtMark)) return home;
  const partial = `${home}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  try {
    await sh('git', ['clone', '--quiet', '--no-checkout', ROOT, partial], tmpdir());
    await sh('git', ['checkout', '--quiet', PREVIOUS_RELEASE.commit], partial);
    await sh('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], partial);
    await sh('npm', ['run', 'build'], partial);
    writeFileSync(path.join(partial, '.built'), `${new Date().toISOString()}\n`);
    rmSync(home, { recursive: true, force: true });
    renameSync(partial, home);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
  return home;
}

/** The previous release's server (its built bundle, as `npm start` runs it), not yet healthy. */
export function spawnPreviousServer(
  home: string,
  port: number,
  env: Record<string, string>,
): ServerProcess {
  return spawnServer(port, {
    entry: path.join(home, 'packages/server/dist/server.js'),
    cwd: home,
    env: { ...withoutTestSettings(), ...env },
  });
}

/** spawnServer passes this process's environment on: the old release must not see the runner's. */
function withoutTestSettings(): Record<string, string> {
  return {
    TEST_DB_ENGINE: '',
    VITEST: '',
    VITEST_MODE: '',
    VITEST_POOL_ID: '',
    VITEST_WORKER_ID: '',
  };
}

/** `npm run backup -- <file> --server <url>` of the previous release (its own command line). */
export async function backupWithPreviousRelease(
  home: string,
  file: string,
  serverUrl: string,
  env: Record<string, string>,
): Promise<void> {
  try {
    await run(
      process.execPath,
      ['--import', 'tsx', 'packages/server/src/ops/cli.ts', 'backup', file, '--server', serverUrl],
      { cwd: home, env: { ...buildEnv(), ...env }, maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    const e = error as Error & { stdout?: string; stderr?: string };
    throw new Error(`the previous release's backup failed:\n${e.stdout}\n${e.stderr}`);
  }
}
