import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config/config';
import { openDatabase, type Database } from './db/database';
import { DataDirInUseError } from './db/data-dir-lock';

function databaseOptions(config: Config) {
  return config.databaseUrl
    ? ({ engine: 'postgres', url: config.databaseUrl } as const)
    : ({ engine: 'pglite', dataDir: path.join(config.dataDir, 'db') } as const);
}

/** Starts the product: configuration, database (migrated), the app, and a graceful shutdown. */
async function main() {
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
  app.log.info(
    `Campus Books is running at ${config.publicUrl} (database: ${database.engine}, data: ${config.dataDir})`,
  );
}

await main();
