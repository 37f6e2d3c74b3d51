import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config';
import { verifyArchive } from './archive-reader';
import { RestoreRefusedError, summaryLine } from './manifest';
import type { Progress } from './progress';
import { restoreBackup } from './restore';
import { describeUrl, embeddedDbDir, openRestoreTarget, storageFor } from './targets';
import { describeVerification } from './verify';

export interface RestoreRun {
  config: Config;
  file: string;
  progress: Progress;
  log: (line: string) => void;
}

/**
 * `npm run restore -- <file>`: into the installation the environment names (DATABASE_URL or
 * DATA_DIR, S3_* or DATA_DIR/uploads), which must be empty; the embedded database's lock keeps a
 * running server out while it happens.
 */
export async function runRestore(run: RestoreRun): Promise<string> {
  const started = Date.now();
  const file = path.resolve(run.file);
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  const target = run.config.databaseUrl
    ? `PostgreSQL ${describeUrl(run.config.databaseUrl)}`
    : `the embedded database in ${run.config.dataDir}`;
  const store = run.config.s3 ? `S3 bucket ${run.config.s3.bucket}` : 'DATA_DIR/uploads';
  // Everything that can be refused is checked before the target database is even created.
  run.log(`Checking ${file}…`);
  const checked = await verifyArchive(file);
  run.log(
    `archive checked: ${checked.files.length} files and ${checked.tables.length} tables match their sha256`,
  );
  const storage = storageFor(run.config);
  const existing = await storage.list('');
  if (existing.length > 0) {
    await storage.close();
    throw new RestoreRefusedError(
      `The target file store (${store}) already holds ${existing.length} files ` +
        `(e.g. ${existing[0]!.key}). Nothing was changed: restore only into an empty store.`,
    );
  }
  run.log(`Restoring into ${target} and ${store}…`);
  // A failed restore leaves no embedded database it created (its rows are rolled back anyway).
  const createdDbDir = run.config.databaseUrl ? null : embeddedDbDir(run.config.dataDir);
  const dbDirExisted = createdDbDir !== null && existsSync(createdDbDir);
  const database = await openRestoreTarget(run.config).catch(async (error: unknown) => {
    await storage.close();
    throw error;
  });
  let restored = false;
  try {
    const { manifest, verification, upgradedBy } = await restoreBackup({
      archive: file,
      database,
      storage,
      progress: run.progress,
    });
    restored = true;
    if (upgradedBy.length > 0) {
      run.log(
        `brought up to this version by ${upgradedBy.length} migrations (${upgradedBy[0]} … ${upgradedBy.at(-1)})`,
      );
    }
    run.log(describeVerification(verification));
    return summaryLine('restore', manifest, (Date.now() - started) / 1000);
  } finally {
    await storage.close();
    await database.close();
    if (!restored && createdDbDir && !dbDirExisted) {
      await rm(createdDbDir, { recursive: true, force: true });
    }
  }
}
