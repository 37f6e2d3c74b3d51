import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Config } from '../config/config';
import { openDatabase, type Database } from '../db/database';
import { DataDirInUseError } from '../db/data-dir-lock';
import { adminTokenFile } from '../features/admin/admin-token';
import { verifyArchive } from './archive-reader';
import { writeBackup } from './backup';
import { campusStorageFor, connectCampus, findCampus } from './backup-campus';
import { formatBytes, summaryLine } from './manifest';
import type { Progress } from './progress';
import { connectPostgres, embeddedDbDir, storageFor } from './targets';

export interface BackupRun {
  config: Config;
  /** The archive to write; or `dir`, where a dated name is chosen. */
  file?: string;
  /** A folder for dated archives (`campus-books-<UTC date and time>.tar`), e.g. from a timer. */
  dir?: string;
  /** With `dir`: after a good backup, keep only the newest `keep` dated archives there. */
  keep?: number;
  /** The clock that names a dated archive. */
  now?: () => Date;
  /** Base URL of a running server on the embedded database (default http://127.0.0.1:$PORT). */
  serverUrl?: string;
  /** A campus of the directory (decision 024): its rows, read as its role, and its files only. */
  campus?: string;
  progress: Progress;
  log: (line: string) => void;
}

/**
 * `npm run backup -- <file>`: on PostgreSQL, reads the database directly (a REPEATABLE READ
 * snapshot); on the embedded database, opens it when no server holds it, and otherwise asks the
 * running server, which alone may open it, to stream the archive. Writes `<file>.partial`, checks
 * every checksum, then renames it: a failed backup never leaves a file that looks complete.
 */
export async function runBackup(run: BackupRun): Promise<string> {
  const started = Date.now();
  const file = run.dir
    ? await datedArchive(path.resolve(run.dir), (run.now ?? (() => new Date()))())
    : path.resolve(run.file ?? '');
  if (existsSync(file)) throw new Error(`${file} already exists: choose another file name`);
  const partial = `${file}.partial`;
  try {
    const campus = run.campus === undefined ? null : await findCampus(run.config, run.campus);
    const database = campus ? await connectCampus(campus) : await openSource(run.config);
    if (database) {
      run.log(
        campus
          ? `Backing up campus ${campus.campus.key} (schema ${campus.campus.schema}) and its files in ${storeName(run.config)}…`
          : `Backing up the ${database.engine} database and ${storeName(run.config)}…`,
      );
      const storage = campus
        ? campusStorageFor(run.config, campus.campus.key)
        : storageFor(run.config);
      try {
        await writeBackup({
          database,
          storage,
          output: createWriteStream(partial, { mode: 0o600 }),
          progress: run.progress,
          ...(campus ? { campus: campus.campus } : {}),
        });
      } finally {
        await storage.close();
        await database.close();
      }
    } else {
      const url = run.serverUrl ?? `http://127.0.0.1:${run.config.port}`;
      run.log(`The server holds the embedded database: asking it at ${url} for the backup…`);
      await fetchBackup(url, run.config.dataDir, partial, run.progress);
    }
    run.log('Checking the archive against its manifest…');
    const manifest = await verifyArchive(partial);
    await rename(partial, file);
    const bytes = (await stat(file)).size;
    for (const warning of manifest.warnings) run.log(`warning: ${warning}`);
    run.log(
      `archive checked: ${manifest.files.length} files and ${manifest.tables.length} tables match their sha256`,
    );
    if (run.dir && run.keep) {
      for (const old of await pruneBackups(path.dirname(file), run.keep)) {
        run.log(`removed the older backup ${old}`);
      }
    }
    return `${summaryLine('backup', manifest, (Date.now() - started) / 1000, bytes)} -> ${file}`;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

const DATED = /^campus-books-\d{8}T\d{6}Z(-\d+)?\.tar$/;

/**
 * `campus-books-20261202T033000Z.tar` in `dir` (created 0700 when missing): UTC, so the names sort
 * by time whatever the machine's zone; `-2`, `-3`… when a backup of the same second exists.
 */
export async function datedArchive(dir: string, now: Date): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 1; ; n++) {
    const file = path.join(dir, `campus-books-${stamp}${n === 1 ? '' : `-${n}`}.tar`);
    if (!existsSync(file) && !existsSync(`${file}.partial`)) return file;
  }
}

/** Removes all but the newest `keep` dated archives in `dir`; returns the names removed. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const dated = (await readdir(dir)).filter((name) => DATED.test(name));
  const byAge = dated.sort((a, b) => {
    const [stampA, stampB] = [a.slice(13, 29), b.slice(13, 29)];
    if (stampA !== stampB) return stampA < stampB ? -1 : 1;
    return Number(/-(\d+)\.tar$/.exec(a)?.[1] ?? 1) - Number(/-(\d+)\.tar$/.exec(b)?.[1] ?? 1);
  });
  const old = byAge.slice(0, Math.max(0, byAge.length - keep));
  for (const name of old) await rm(path.join(dir, name), { force: true });
  return old;
}

const storeName = (config: Config) =>
  config.s3 ? `S3 bucket ${config.s3.bucket}` : 'DATA_DIR/uploads';

/** The database to read directly, or null when a live server holds the embedded one. */
async function openSource(config: Config): Promise<Database | null> {
  if (config.databaseUrl) return connectPostgres(config.databaseUrl);
  try {
    return await openDatabase({ engine: 'pglite', dataDir: embeddedDbDir(config.dataDir) });
  } catch (error) {
    if (error instanceof DataDirInUseError) return null;
    throw error;
  }
}

async function fetchBackup(baseUrl: string, dataDir: string, partial: string, progress: Progress) {
  let token: string;
  try {
    token = (await readFile(adminTokenFile(dataDir), 'utf8')).trim();
  } catch {
    throw new Error(
      `Cannot read ${adminTokenFile(dataDir)}: run the backup as the user the server runs as`,
    );
  }
  let response: Response;
  try {
    response = await fetch(new URL('/api/admin/backup', baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
  } catch (error) {
    throw new Error(
      `The server at ${baseUrl} did not answer (${(error as Error).message}); ` +
        'pass --server http://127.0.0.1:<port> if it listens elsewhere',
    );
  }
  if (!response.ok || !response.body) {
    const body = await response.text().catch(() => '');
    throw new Error(`The server refused the backup (${response.status}): ${body.slice(0, 200)}`);
  }
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      progress({ phase: 'received', done: received, bytes: received });
      callback(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      counter,
      createWriteStream(partial, { mode: 0o600 }),
    );
  } catch (error) {
    throw new Error(
      `The backup stream broke after ${formatBytes(received)} (${(error as Error).message}); see the server log`,
    );
  }
}
