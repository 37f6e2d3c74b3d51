import path from 'node:path';
import { ConfigError, loadConfig, type Config } from './config/config';
import { openDatabase, type Database } from './db/database';
import { DataDirInUseError } from './db/data-dir-lock';

function databaseOptions(config: Config) {
  return config.databaseUrl
    ? ({ engine: 'postgres', url: config.databaseUrl } as const)
    : ({ engine: 'pglite', dataDir: path.join(config.dataDir, 'db') } as const);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Starts the product: configuration, database (migrated), the app, and a graceful shutdown. */
async function main() {
  const started = performance.now(); // ms since the process started (node, then this file loaded)
  // Keep the event loop busy until the server listens. Whenever it has nothing to wait for (while the
  // WebAssembly of PGlite compiles, or a promise chain runs), Node waits for every background task of
  // V8 to finish, including the optimising compilation of PGlite's hot code: ~0.25 s for nothing.
  const holdEventLoop = setInterval(() => {}, 60_000);
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  // The app's code (Fastify, the routes) loads while the database opens: PGlite compiles its
  // WebAssembly and reads its files in the meantime.
  let appCodeLoaded = NaN;
  const appModule = import('./app');
  appModule.then(
    () => (appCodeLoaded = performance.now()),
    () => {}, // a failure is reported where it is awaited, below
  );

  let database: Database;
  try {
    database = await openDatabase(databaseOptions(config));
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      console.error(error.message);
      process.exit(75); // EX_TEMPFAIL
    }
    console.error(`Could not open the database: ${(error as Error).message}`);
    process.exit(69); // EX_UNAVAILABLE
  }
  const databaseOpened = performance.now();

  const { buildApp } = await appModule;
  const app = await buildApp({
    config,
    database,
    serveWeb: true,
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    },
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
    } finally {
      await database.close();
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  clearInterval(holdEventLoop); // the listening socket keeps the loop alive from now on
  const listening = performance.now();
  app.log.info(
    {
      // Milestones in ms since the process started (bench/startup.ts reads them).
      startup: {
        entryLoaded: Math.round(started),
        appCodeLoaded: Math.round(appCodeLoaded),
        databaseOpened: Math.round(databaseOpened),
        listening: Math.round(listening),
      },
    },
    `Campus Books is running at ${config.publicUrl} (database: ${database.engine}, data: ${config.dataDir}), ` +
      `${seconds(listening)} after the process started`,
  );
}

await main();
