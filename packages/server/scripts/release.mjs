// Packs a release archive from a built checkout (`npm run release`, which builds first):
//   node packages/server/scripts/release.mjs [--out FILE]   (default release/campus-books-<version>.tar.gz)
// The archive holds what a machine needs to run the product and nothing to build it: the built server
// (packages/server/dist) and web app (packages/web/dist, dist-ssr), the migrations and the password
// threads' code (plain JavaScript) the server reads beside its sources, the lock file and every workspace's package.json, the operator's scripts, ops/
// and the docs. On the machine: `npm ci --omit=dev && npm start`; no compiler, no TypeScript, no build.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { create } from 'tar';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const name = `campus-books-${pkg.version}`;
const out = path.resolve(values.out ?? path.join(ROOT, 'release', `${name}.tar.gz`));

/** What a release runs, each path relative to the repository's root. */
const BUILT = [
  'packages/server/dist/server.js',
  'packages/server/dist/ops.js',
  'packages/web/dist/index.html',
  'packages/web/dist-ssr/entry-server.js',
];
const missing = BUILT.filter((file) => !existsSync(path.join(ROOT, file)));
if (missing.length > 0) {
  console.error(
    `Not built yet (${missing.join(', ')} missing): run \`npm run release\`, which builds.`,
  );
  process.exit(69);
}

const ENTRIES = [
  'README.md',
  'CHANGELOG.md',
  'package-lock.json',
  'scripts/check-node.mjs',
  'ops',
  'docs',
  'packages/common/package.json',
  'packages/e2e/package.json',
  'packages/web/package.json',
  'packages/web/dist',
  'packages/web/dist-ssr',
  'packages/server/package.json',
  'packages/server/scripts/ops.mjs',
  'packages/server/campus',
  'packages/server/dist',
  'packages/server/src/db/migrations',
  'packages/server/src/features/accounts/password.worker.js',
];

/** The scripts that work without sources; `start` no longer builds. */
const RELEASE_SCRIPTS = {
  start: 'npm run start:server',
  'start:server': pkg.scripts['start:server'],
  backup: pkg.scripts.backup,
  restore: pkg.scripts.restore,
  'migrate-data': pkg.scripts['migrate-data'],
  'import-required-books': pkg.scripts['import-required-books'],
  campus: 'node packages/server/scripts/ops.mjs ops campus',
};

const stage = mkdtempSync(path.join(tmpdir(), 'cb-release-'));
try {
  const top = path.join(stage, name);
  for (const entry of ENTRIES) {
    cpSync(path.join(ROOT, entry), path.join(top, entry), {
      recursive: true,
      // Bundles a server test may have left in dist/ are not part of a release.
      filter: (source) => !path.basename(source).startsWith('test-'),
    });
  }
  const manifest = { ...pkg, scripts: RELEASE_SCRIPTS, devDependencies: undefined };
  writeFileSync(path.join(top, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(path.dirname(out), { recursive: true });
  rmSync(out, { force: true });
  await create({ gzip: true, file: out, cwd: stage, portable: true }, [name]);
  console.log(out);
} catch (error) {
  rmSync(out, { force: true });
  throw error;
} finally {
  rmSync(stage, { recursive: true, force: true });
}
