// Entry point of `npm run bench`: installs the benchmark's own tools on demand (they are not part of
// the product's install), then runs bench/run.ts pinned to core 1 (the server gets core 0).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(benchDir);
const lock = path.join(benchDir, 'package-lock.json');
const installedLock = path.join(benchDir, 'node_modules/.package-lock.json');

// npm writes node_modules/.package-lock.json on install; a missing or older one means (re)install.
const isInstalled =
  existsSync(installedLock) &&
  JSON.parse(readFileSync(installedLock, 'utf8')).packages?.['node_modules/lighthouse']?.version ===
    JSON.parse(readFileSync(lock, 'utf8')).packages?.['node_modules/lighthouse']?.version;
if (!isInstalled) {
  console.log('[bench] installing the benchmark tools (npm --prefix bench ci)');
  const install = spawnSync('npm', ['--prefix', benchDir, 'ci', '--no-audit', '--no-fund'], {
    stdio: 'inherit',
  });
  if (install.status !== 0) process.exit(install.status ?? 1);
}

if (spawnSync('wrk', ['--version']).error) {
  console.log(
    "[bench] wrk is not installed (Debian: apt-get install wrk): the main script's rate will be " +
      'measured by autocannon, which cannot take in answers that large as fast, and not checked',
  );
}

// --campus FILE: the campus the benchmarked server serves (its CAMPUS_CONFIG) and the catalogue is
// made for; set in the environment here, before bench/generate/campus.ts reads it.
const env = { ...process.env };
const benchArgs = process.argv.slice(2);
const campusAt = benchArgs.findIndex((arg) => arg === '--campus' || arg.startsWith('--campus='));
if (campusAt >= 0) {
  const arg = benchArgs[campusAt];
  const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : benchArgs[campusAt + 1];
  if (!value || !existsSync(value)) {
    console.error(`[bench] --campus: no campus file at ${value ?? '(nothing given)'}`);
    process.exit(2);
  }
  env.CAMPUS_CONFIG = path.resolve(value);
}

const canPin =
  spawnSync('taskset', ['-c', '0', 'true']).status === 0 &&
  Number(spawnSync('nproc').stdout?.toString().trim()) >= 2;
const node = [process.execPath, '--import', 'tsx', path.join(benchDir, 'run.ts'), ...benchArgs];
const [command, ...args] = canPin ? ['taskset', '-c', '1', ...node] : node;
const run = spawnSync(command, args, {
  cwd: root,
  stdio: 'inherit',
  env: { ...env, BENCH_PINNED: canPin ? '1' : '0' },
});
process.exit(run.status ?? 1);
