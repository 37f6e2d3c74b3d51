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

/**
 * Migrates one database per run, then every test file starts from a copy of it: a PGlite dump
 * (initdb costs seconds; loading a dump much less), or a PostgreSQL template database.
 */
export default async function setup(project: TestProject) {
  // The database is migrated for the project's campus (its listings' JSON names its schools).
  setActiveCampus(readCampusFile(testCampusFileOf(project.config.env.TEST_CAMPUS_FILE)));
  const engine = project.config.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'pglite';
  if (engine === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    const template = `cb_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${template}`;
    const database = await openDatabase({ engine: 'postgres', url: templateUrl.toString() });
    await database.close();
    project.provide('postgresTemplate', template);
    project.provide('pgliteDumpFile', '');
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${template}`);
      await admin.end();
    };
  }

  const dir = mkdtempSync(path.join(tmpdir(), 'cb-pglite-'));
  const database = await openDatabase({ engine: 'pglite' });
  const client = (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } })
    .$client;
  const dump = await client.dumpDataDir('none');
  await database.close();
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteDumpFile', file);
  project.provide('postgresTemplate', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
