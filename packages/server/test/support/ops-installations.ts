import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config/config';
import { openDatabase, type Database } from '../../src/db/database';
import { users } from '../../src/db/schema';
import { hashPassword } from '../../src/features/accounts/password';
import { createPostgresDatabase, signInAs, type TestApp, type TestUser } from '../helpers';
import { embeddedDbDir } from '../../src/ops/targets';

/** Test support: whole installations (DATA_DIR, database, store) as the ops commands see them. */

export type Engine = 'pglite' | 'postgres';

export interface Installation {
  engine: Engine;
  dataDir: string;
  /** The environment the server and the commands read for this installation. */
  env: Record<string, string>;
  config: Config;
  /** Opens the database (migrated) the way the server does. */
  openDatabase(): Promise<Database>;
  close(): Promise<void>;
}

/** A fresh installation: a DATA_DIR, and on PostgreSQL its own empty database. */
export async function createInstallation(
  engine: Engine,
  extraEnv: Record<string, string> = {},
): Promise<Installation> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-ops-'));
  const pgDb = engine === 'postgres' ? await createPostgresDatabase(false) : null;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // Catalogues are made through the API by a few sellers: the hourly creation limit is not tested here.
    RATE_LIMIT_LISTINGS_PER_ACCOUNT: '100000',
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...extraEnv,
  };
  const config = loadConfig(env);
  return {
    engine,
    dataDir,
    env,
    config,
    openDatabase: () => {
      if (pgDb) return openDatabase({ engine: 'postgres', url: pgDb.url, poolSize: 4 });
      const dir = embeddedDbDir(dataDir);
      const dumpFile = inject('pgliteDumpFile'); // only the PGlite project prepares one
      if (existsSync(dir) || !dumpFile) return openDatabase({ engine: 'pglite', dataDir: dir });
      // A migrated dump saves the 2–3 s of initdb; the data then lives in DATA_DIR/db.
      const dump = readFileSync(dumpFile);
      return openDatabase({ engine: 'pglite', dataDir: dir, loadFrom: new Blob([dump]) });
    },
    close: async () => {
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The app of an installation, as TestApp so the feature test helpers work on it. */
export async function startApp(
  installation: Installation,
): Promise<TestApp & { app: FastifyInstance }> {
  const database = await installation.openDatabase();
  const app = await buildApp({ config: installation.config, database });
  await app.ready();
  return {
    app,
    database,
    config: installation.config,
    dataDir: installation.dataDir,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

let counter = 0;

/** A verified user with a real argon2 hash, signed in. */
export async function addUser(t: TestApp, password = 'Old-Passw0rd!'): Promise<TestUser> {
  counter += 1;
  const email = `ops${counter}.${randomUUID().slice(0, 6)}@richmond.edu`;
  const [row] = await t.database.db
    .insert(users)
    .values({
      firstName: 'Ops',
      lastName: String(counter),
      username: `Ops ${counter}`,
      email,
      passwordHash: await hashPassword(password),
      groupmelink: `https://groupme.com/contact/ops${counter}`,
      emailVerifiedAt: new Date(),
    })
    .returning();
  return {
    id: row!.id,
    email,
    password,
    username: row!.username,
    groupmelink: row!.groupmelink,
    cookie: await signInAs(t.app, row!.id),
  };
}
