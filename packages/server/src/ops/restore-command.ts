import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config';
import { verifyArchive } from './archive-reader';
import { RestoreRefusedError, summaryLine } from './manifest';
import type { Progress } from './progress';
import { restoreBackup } from './restore';
import { campusStorageFor, findCampus } from './backup-campus';
import { restoreCampus } from './restore-campus';
import { describeUrl, embeddedDbDir, openRestoreTarget, storageFor } from './targets';
import { describeVerification } from './verify';

export interface RestoreRun {
  config: Config;
  file: string;
  progress: Progress;
  log: (line: string) => void;
  /** A campus of the directory (decision 024): replaced by the archive, its files too; no other. */
  campus?: string;
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
  if (run.campus !== undefined) return restoreIntoCampus(run, file, started);
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

/**
 * `npm run restore -- <file> --campus <key>`: replaces that campus's rows and files by the
 * archive's (restore-campus.ts); the other campuses are not touched. Unlike a whole installation's
 * restore it does not want an empty target: restoring a campus is going back to its backup.
 */
async function restoreIntoCampus(run: RestoreRun, file: string, started: number): Promise<string> {
  const target = await findCampus(run.config, run.campus!);
  if (target.campus.state === 'moving') {
    throw new RestoreRefusedError(
      `Campus ${target.campus.key} is being moved to another server: restore it once the move is over.`,
    );
  }
  const storage = campusStorageFor(run.config, target.campus.key);
  run.log(
    `Replacing campus ${target.campus.key} (schema ${target.campus.schema} on ` +
      `${describeUrl(target.url)}) and its files by the archive's…`,
  );
  try {
    const restored = await restoreCampus({
      archive: file,
      target,
      storage,
      progress: run.progress,
    });
    if (restored.upgradedBy.length > 0) {
      run.log(`brought up to this version by ${restored.upgradedBy.length} migrations`);
    }
    run.log(describeVerification(restored.verification));
    run.log(`removed ${restored.removedFiles} files of the campus the archive does not hold`);
    return summaryLine(
      `restore into campus ${target.campus.key}`,
      { ...restored.manifest, campus: undefined },
      (Date.now() - started) / 1000,
    );
  } finally {
    await storage.close();
  }
}
