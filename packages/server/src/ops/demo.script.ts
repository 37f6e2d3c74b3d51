import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../app';
import { loadConfig } from '../config/config';
import { openDatabase } from '../db/database';
import { DEMO_MARKER, DemoRefused, demoDataDir, seedDemo } from './demo';
import { SERVER_NODE_FLAGS } from '../node-flags';

/**
 * `npm run demo` (after `npm run build`): seeds the demo campus into DEMO_DATA_DIR (default
 * ./data-demo, never the real DATA_DIR) and starts the built server on it. The demo always uses the
 * embedded database, local files and the outbox: DATABASE_URL, S3_* and SMTP_URL are ignored.
 */
process.umask(0o077); // as the server: everything in the folder is private to this account

let dataDir: string;
try {
  dataDir = demoDataDir(process.env);
} catch (error) {
  if (!(error instanceof DemoRefused)) throw error;
  console.error(error.message);
  process.exit(64); // EX_USAGE
}
mkdirSync(dataDir, { recursive: true, mode: 0o700 });
writeFileSync(
  path.join(dataDir, DEMO_MARKER),
  'This folder holds the demo campus of `npm run demo`.\n',
);

const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir };
for (const name of Object.keys(env)) {
  if (name === 'DATABASE_URL' || name === 'SMTP_URL' || name.startsWith('S3_')) delete env[name];
}

const config = loadConfig({ ...env, LOG_LEVEL: 'silent' } as Record<string, string>);
const database = await openDatabase({ engine: 'pglite', dataDir: path.join(dataDir, 'db') });
const app = await buildApp({ config, database });
let seeded;
try {
  await app.ready();
  console.log(`Filling the demo campus in ${dataDir} (once; later runs reuse it)…`);
  seeded = await seedDemo(app, { log: (line) => console.log(`  ${line}`) });
} finally {
  await app.close();
  await database.close();
}
console.log(
  `Demo campus: ${seeded.listings} listings. Sign in as ${seeded.email} with the password ` +
    `${seeded.password}`,
);

const server = fileURLToPath(new URL('../../dist/server.js', import.meta.url));
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, server], {
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...env },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
