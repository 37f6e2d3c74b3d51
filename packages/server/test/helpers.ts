import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config/config';
import { openDatabase, type Database } from '../src/db/database';
import { users } from '../src/db/schema';
import { hashPassword } from '../src/features/accounts/password';
import { campusValues } from './campus-values';
import { lendPgliteDatabase } from './pglite-pool';
import { TEST_CAMPUS_FILE } from './use-default-campus';

export const TEST_ENGINE = (process.env.TEST_DB_ENGINE ?? 'pglite') as 'pglite' | 'postgres';

/** A new database on the PostgreSQL test server: empty, or migrated (a copy of the run's template). */
export async function createPostgresDatabase(
  migrated: boolean,
): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `cb_test_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(
    migrated
      ? `CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`
      : `CREATE DATABASE ${name}`,
  );
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** A fresh, migrated database for one test file, on the engine this project runs on. */
export async function openTestDatabase(): Promise<Database> {
  if (TEST_ENGINE === 'pglite') {
    const dumpFile = inject('pgliteDumpFile');
    return lendPgliteDatabase(dumpFile, () => readFileSync(dumpFile));
  }
  const target = await createPostgresDatabase(true);
  const database = await openDatabase({ engine: 'postgres', url: target.url, poolSize: 5 });
  return {
    ...database,
    close: async () => {
      await database.close();
      await target.drop();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/** The real app on a fresh database and a temporary DATA_DIR; env overrides configuration. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    now?: () => Date;
    webDistDir?: string;
    webServerEntry?: string;
    /** The app's logger (Fastify's option); none by default. */
    logger?: FastifyServerOptions['logger'];
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-test-'));
  // Book lookup off unless a test points it at its fake providers: no test reaches the internet.
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    BOOK_LOOKUP: 'off',
    // The project's campus (TEST_CAMPUS_FILE); a test's own CAMPUS_CONFIG wins.
    ...(process.env.TEST_CAMPUS_FILE ? { CAMPUS_CONFIG: TEST_CAMPUS_FILE } : {}),
    ...env,
  });
  const database = await openTestDatabase();
  const app = await buildApp({
    config,
    database,
    jobs: options.now ? { now: options.now } : {},
    ...(options.now ? { pageClock: () => options.now!().getTime() } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.webDistDir
      ? { serveWeb: true, webDistDir: options.webDistDir, webServerEntry: options.webServerEntry }
      : {}),
  });
  await app.ready();
  return {
    app,
    database,
    config,
    dataDir,
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
      assertEveryAnswerDeclared(app);
    },
  };
}

/**
 * Fails the test file whose requests got an answer with a status its route's response schema (and
 * so the OpenAPI document) does not list: every test of the API is a test of the document too.
 */
export function assertEveryAnswerDeclared(app: FastifyInstance) {
  if (app.undeclaredAnswers.size === 0) return;
  throw new Error(
    `Answers with a status their route's response schema does not declare (add it to the ` +
      `route's schema.response): ${[...app.undeclaredAnswers].join('; ')}`,
  );
}

/** The smallest built web app's index.html the server's page handling works with. */
export const TEST_WEB_SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Campus Books</title>
  </head>
  <body><div id="root"></div></body>
</html>
`;

/**
 * The real app serving a small built web app: `files` (path in the build folder to its contents)
 * are written to a temporary folder, removed again on close.
 */
export async function createWebTestApp(
  files: Record<string, string | Buffer>,
  env: Record<string, string> = {},
  options: { webServerEntry?: string; now?: () => Date } = {},
): Promise<TestApp & { distDir: string }> {
  const distDir = mkdtempSync(path.join(tmpdir(), 'cb-web-dist-'));
  for (const [name, contents] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(distDir, name)), { recursive: true });
    writeFileSync(path.join(distDir, name), contents);
  }
  const t = await createTestApp(env, { webDistDir: distDir, ...options });
  return {
    ...t,
    distDir,
    close: async () => {
      await t.close();
      rmSync(distDir, { recursive: true, force: true });
    },
  };
}

let userCounter = 0;

export interface TestUser {
  id: string;
  email: string;
  password: string;
  username: string;
  groupmelink: string;
  /** `Cookie` header value of a signed-in session. */
  cookie: string;
}

/** Inserts a user directly (verified unless told otherwise) and signs them in. */
export async function createUser(
  testApp: TestApp,
  options: { verified?: boolean; email?: string; password?: string } = {},
): Promise<TestUser> {
  userCounter += 1;
  const email =
    options.email ?? campusValues.email(`student${userCounter}.${randomUUID().slice(0, 8)}`);
  const password = options.password ?? 'Passw0rd!';
  const username = `Student ${userCounter}`;
  const groupmelink = `https://groupme.com/contact/${userCounter}`;
  const [row] = await testApp.database.db
    .insert(users)
    .values({
      firstName: 'Student',
      lastName: String(userCounter),
      username,
      email,
      passwordHash: await hashPassword(password),
      groupmelink,
      emailVerifiedAt: options.verified === false ? null : new Date(),
    })
    .returning();
  const cookie = await signInAs(testApp.app, row!.id);
  return { id: row!.id, email, password, username, groupmelink, cookie };
}

/** A session cookie for a user id, made by the same code the sign-in route uses. */
export async function signInAs(app: FastifyInstance, userId: string): Promise<string> {
  let cookieHeader = '';
  const reply = {
    setCookie(name: string, value: string) {
      cookieHeader = `${name}=${value}`;
      return reply;
    },
  };
  await app.sessions.start(reply as never, userId);
  return cookieHeader;
}
