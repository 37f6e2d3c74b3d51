import path from 'node:path';
import pino from 'pino';
import type { CampusRouting } from './campuses/campus-routing';
import { ConfigError, loadConfig, type Config } from './config/config';
import { openDatabase, type Database } from './db/database';
import { DataDirInUseError } from './db/data-dir-lock';
import { closeDataDir, makeDataDirPrivate } from './lib/private-data-dir';
import { effectiveLogLevel, startLine } from './lib/start-line';
import { warmUp } from './ops/warm-up';

// Everything the server creates (DATA_DIR, the database, the outbox, stored images) is readable by
// its own account only: the database holds password hashes and sessions, the outbox reset links.
process.umask(0o077);

function databaseOptions(config: Config) {
  return config.databaseUrl
    ? ({ engine: 'postgres', url: config.databaseUrl, poolSize: config.databasePoolSize } as const)
    : ({ engine: 'pglite', dataDir: path.join(config.dataDir, 'db') } as const);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Starts the product: configuration, database (migrated), the app, and a graceful shutdown. */
async function main() {
  const started = performance.now(); // ms since the process started (node, then this file loaded)
  const isTerminal = process.stdout.isTTY === true;
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

  // An installation from before the umask above: nobody else may reach into DATA_DIR from now on.
  closeDataDir(config.dataDir);

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
  // A many-campus installation (decision 024): the directory in the home database names campuses.
  let campuses: CampusRouting | undefined;
  if (database.engine === 'postgres') {
    try {
      const { openCampusInstallation } = await import('./campuses/campus-installation');
      const installation = await openCampusInstallation(database, {
        poolSize: config.databasePoolSize,
        pollMs: config.campusStatePollMs,
      });
      if (installation) ({ database, routing: campuses } = installation);
    } catch (error) {
      console.error(`Could not open the campuses: ${(error as Error).message}`);
      await database.close().catch(() => {});
      process.exit(69); // EX_UNAVAILABLE
    }
  }
  const databaseOpened = performance.now();
  // Once the database is open (a fresh embedded one is written world-readable): every file private.
  // The walk runs on the thread pool while the app is built; it is done before the server listens.
  const dataDirMadePrivate = makeDataDirPrivate(config.dataDir);

  const { buildApp } = await appModule;
  // The app's clock: the real one, unless a test moved it on (refused in production, config.ts).
  const { clockOffsetMs } = config;
  // Outside a terminal the log's lines go out in writes of 4 KB or more, at most a second late (pino's
  // asynchronous logging; what is left is written on exit): a write per line cost a busy server's
  // answers a third of their time (docs/performance.md, "rush"). A power cut may lose that second.
  const logStream = isTerminal
    ? undefined
    : pino.destination({ dest: 1, minLength: 4096, sync: false, periodicFlush: 1000 });
  const app = await buildApp({
    config,
    database,
    campuses,
    serveWeb: true,
    jobs: clockOffsetMs > 0 ? { now: () => new Date(Date.now() + clockOffsetMs) } : undefined,
    logger: {
      // In a terminal: the start line below, warnings and errors; JSON lines everywhere else.
      level: effectiveLogLevel(config.logLevel, process.env, isTerminal),
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      stream: logStream,
    },
  });

  const dataDirMade = await dataDirMadePrivate;
  if (dataDirMade.changed > 0) {
    app.log.info(`Made ${dataDirMade.changed} files and folders of ${config.dataDir} private`);
  }
  for (const problem of dataDirMade.problems.slice(0, 20)) {
    app.log.warn(`Could not make a file of DATA_DIR private: ${problem}`);
  }

  // Graceful drain (docs/operations.md): /api/health answers 503 from now on; SHUTDOWN_DELAY_MS later
  // the listening socket closes (the balancer sends new requests elsewhere), requests in flight and
  // jobs in flight finish, then the process exits; after SHUTDOWN_GRACE_MS more it exits anyway.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.lifecycle.draining = true;
    app.log.info({ signal }, 'shutting down: finishing the requests in flight');
    setTimeout(() => {
      app.log.warn({ graceMs: config.shutdownGraceMs }, 'requests still in flight: exiting anyway');
      process.exit(1);
    }, config.shutdownDelayMs + config.shutdownGraceMs).unref();
    try {
      // Still serving, while the balancer's health checks see the 503 and stop sending requests.
      if (config.shutdownDelayMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
      }
      await app.close();
    } finally {
      await database.close();
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const warmed = await warmUp(app, config.warmUpMs);
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
        warmedUp: {
          requests: warmed.requests,
          ms: Math.round(warmed.ms),
          stoppedBy: warmed.stoppedBy,
        },
        listening: Math.round(listening),
      },
    },
    `Campus Books is running at ${config.publicUrl} (database: ${database.engine}, data: ${config.dataDir}), ` +
      `${seconds(listening)} after the process started`,
  );
  logStream?.flush(); // the start line now, not a second later
  if (isTerminal) console.log(startLine(config.publicUrl));
}

await main();
