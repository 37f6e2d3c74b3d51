/**
 * Where the server's start-up time goes, in one process (no HTTP): loading the code through tsx,
 * opening the embedded database (PGlite + migrations check), building the app.
 *   node --import tsx bench/startup.ts --data-dir DIR   (a DATA_DIR made by bench/generate/cli.ts)
 */
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } } });
if (!values['data-dir']) throw new Error('Give --data-dir');
const dataDir = path.resolve(values['data-dir']);

const sinceProcessStart = () => Math.round(performance.now());
const t0 = sinceProcessStart();
const { buildApp } = await import('../packages/server/src/app');
const { openDatabase } = await import('../packages/server/src/db/database');
const { loadConfig } = await import('../packages/server/src/config/config');
const t1 = sinceProcessStart();
const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
});
const database = await openDatabase({ engine: 'pglite', dataDir: path.join(dataDir, 'db') });
const t2 = sinceProcessStart();
const app = await buildApp({ config, database, serveWeb: true, logger: false });
await app.ready();
const t3 = sinceProcessStart();
console.log(
  `node + tsx start ${t0} ms, loading the server code ${t1 - t0} ms, opening PGlite ${t2 - t1} ms, building the app ${t3 - t2} ms: ${t3} ms in all`,
);
await app.close();
await database.close();
