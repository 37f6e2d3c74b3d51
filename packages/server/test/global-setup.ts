import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { setActiveCampus } from '@campus-books/common/active-campus';
import { readCampusFile } from '../src/config/campus-file';
import { openDatabase } from '../src/db/database';
import { testCampusFileOf } from './use-default-campus';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDumpFile: string;
    postgresTemplate: string;
  }
}

/** What a project's set-up made: the values it provides and how to remove them. */
interface Migrated {
  pgliteDumpFile: string;
  postgresTemplate: string;
  remove(): Promise<void>;
}

/**
 * Every project's set-up runs in the run's main process: projects on the same engine and campus
 * (a suite and its own-modules twin) share one migrated database, removed after the last of them.
 */
type Shared = { migrated: Promise<Migrated>; users: number };
const made = ((globalThis as { campusBooksMigrated?: Map<string, Shared> }).campusBooksMigrated ??=
  new Map());

/**
 * Migrates one database per run, then every test file starts from a copy of it: a PGlite dump
 * (initdb costs seconds; loading a dump much less), or a PostgreSQL template database.
 */
export default async function setup(project: TestProject) {
  const campusFile = testCampusFileOf(project.config.env.TEST_CAMPUS_FILE);
  const engine = project.config.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'pglite';
  const key = `${engine} ${campusFile}`;
  let entry = made.get(key);
  if (!entry) {
    // The database is migrated for the project's campus (its listings' JSON names its schools).
    setActiveCampus(readCampusFile(campusFile));
    entry = { migrated: engine === 'postgres' ? postgresTemplate() : pgliteDump(), users: 0 };
    made.set(key, entry);
  }
  entry.users += 1;
  const { pgliteDumpFile, postgresTemplate: template } = await entry.migrated;
  project.provide('pgliteDumpFile', pgliteDumpFile);
  project.provide('postgresTemplate', template);
  const shared = entry;
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    made.delete(key);
    await (await shared.migrated).remove();
  };
}

async function postgresTemplate(): Promise<Migrated> {
  const url = process.env.TEST_DATABASE_URL!;
  const template = `cb_template_${process.pid}_${made.size}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${template}`;
  const database = await openDatabase({ engine: 'postgres', url: templateUrl.toString() });
  await database.close();
  return {
    pgliteDumpFile: '',
    postgresTemplate: template,
    remove: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${template}`);
      await admin.end();
    },
  };
}

async function pgliteDump(): Promise<Migrated> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cb-pglite-'));
  const database = await openDatabase({ engine: 'pglite' });
  const client = (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } })
    .$client;
  const dump = await client.dumpDataDir('none');
  await database.close();
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  return {
    pgliteDumpFile: file,
    postgresTemplate: '',
    remove: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
