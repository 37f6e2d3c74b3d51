import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Config } from '../config/config';
import { openDatabase } from '../db/database';
import { DataDirInUseError } from '../db/data-dir-lock';
import { createLocalStorage } from '../lib/storage/local-storage';
import { createS3Storage } from '../lib/storage/s3-storage';
import { writeBackup } from './backup';
import { formatBytes, summaryLine } from './manifest';
import type { Progress } from './progress';
import { assertEmptyTarget, restoreBackup } from './restore';
import { describeUrl, embeddedDbDir, localUploadsDir } from './targets';
import { describeVerification } from './verify';

export interface MigrateRun {
  /** DATA_DIR is the source; S3_* is the target store when `toS3`. */
  config: Config;
  to: string;
  toS3: boolean;
  progress: Progress;
  log: (line: string) => void;
}

/**
 * `npm run migrate-data -- --to postgres://… [--to-s3]`: copies a STOPPED embedded installation into
 * an empty PostgreSQL database (and its files into an empty S3 bucket), through the same archive a
 * backup writes, then verifies counts and checksums in the target. The embedded data is left as it
 * was, so going back is starting the server without DATABASE_URL.
 */
export async function runMigrateData(run: MigrateRun): Promise<string> {
  const started = Date.now();
  const { config } = run;
  if (!/^postgres(ql)?:\/\//.test(run.to)) {
    throw new Error('--to must be a postgres:// URL of the (empty) target database');
  }
  if (run.toS3 && !config.s3) {
    throw new Error(
      '--to-s3 needs S3_BUCKET (and S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)',
    );
  }
  let source;
  try {
    source = await openDatabase({ engine: 'pglite', dataDir: embeddedDbDir(config.dataDir) });
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      throw new Error(
        `${error.message} Stop the server before migrating: writes made during the copy would be lost.`,
      );
    }
    throw error;
  }
  const sourceStore = createLocalStorage(localUploadsDir(config.dataDir));
  const targetStore = run.toS3 ? createS3Storage(config.s3!) : sourceStore;
  const workDir = await mkdtemp(path.join(tmpdir(), 'cb-migrate-'));
  try {
    const target = await openDatabase({ engine: 'postgres', url: run.to, poolSize: 4 });
    try {
      await assertEmptyTarget(target.db, run.toS3 ? targetStore : null);
      run.log(
        `Copying ${config.dataDir} to ${describeUrl(run.to)}${run.toS3 ? ` and S3 bucket ${config.s3!.bucket}` : ''}…`,
      );
      const archive = path.join(workDir, 'migration.tar');
      await writeBackup({
        database: source,
        storage: sourceStore,
        output: createWriteStream(archive),
        progress: run.progress,
      });
      const size = (await stat(archive)).size;
      const { manifest, verification } = await restoreBackup({
        archive,
        database: target,
        storage: targetStore,
        copyFiles: run.toS3,
        workDir,
        progress: run.progress,
      });
      run.log(describeVerification(verification));
      run.log(
        `Now start the server with DATABASE_URL=${describeUrl(run.to)}` +
          `${run.toS3 ? ' and the same S3_* settings' : ` and the same DATA_DIR (files stay in ${localUploadsDir(config.dataDir)})`}.`,
      );
      return `${summaryLine('migrate-data', manifest, (Date.now() - started) / 1000)}, ${formatBytes(size)} copied`;
    } finally {
      await target.close();
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
    if (targetStore !== sourceStore) await targetStore.close();
    await sourceStore.close();
    await source.close();
  }
}
