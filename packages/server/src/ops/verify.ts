import { sql } from 'drizzle-orm';
import { imageIdFromUrl } from '@campus-books/common/images';
import { rowsOf, type Executor } from '../db/rows';
import type { Storage } from '../lib/storage/storage';
import { imageFileKeys } from './backup';
import { sha256, type Manifest } from './manifest';
import { noProgress, type Progress } from './progress';

const READ_CONCURRENCY = 8;

export interface Verification {
  tables: { name: string; expected: number; actual: number }[];
  filesChecked: number;
  bytesChecked: number;
  listingImagesChecked: number;
  problems: string[];
}

export class VerificationError extends Error {
  constructor(readonly verification: Verification) {
    const shown = verification.problems.slice(0, 5).join('; ');
    const more =
      verification.problems.length > 5 ? ` (and ${verification.problems.length - 5} more)` : '';
    super(`Verification failed: ${shown}${more}`);
    this.name = 'VerificationError';
  }
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** Each table's row count beside the manifest's. */
export async function countRows(manifest: Manifest, db: Executor): Promise<Verification['tables']> {
  const tables: Verification['tables'] = [];
  for (const table of manifest.tables) {
    const [count] = await rowsOf<{ n: number }>(
      db,
      sql.raw(`SELECT count(*)::int AS n FROM ${quote(table.name)}`),
    );
    tables.push({ name: table.name, expected: table.rows, actual: Number(count?.n ?? -1) });
  }
  return tables;
}

/**
 * Checks a restored or migrated installation against the manifest it came from: the row count of
 * every table, the size and sha256 of every file read back from the store, and that every image a
 * listing shows has its files. Throws VerificationError listing what differs. `counted`: the counts
 * taken as the rows were loaded (a restore of an older archive, before the migrations since changed
 * them, e.g. merged two copies of an alert).
 */
export async function verifyInstallation(
  manifest: Manifest,
  db: Executor,
  storage: Storage,
  progress: Progress = noProgress,
  counted?: Verification['tables'],
): Promise<Verification> {
  const problems: string[] = [];
  const tables = counted ?? (await countRows(manifest, db));
  for (const t of tables) {
    if (t.actual !== t.expected)
      problems.push(`${t.name}: ${t.actual} rows, expected ${t.expected}`);
  }

  let bytesChecked = 0;
  for (let start = 0; start < manifest.files.length; start += READ_CONCURRENCY) {
    const batch = manifest.files.slice(start, start + READ_CONCURRENCY);
    const contents = await Promise.all(batch.map((f) => storage.get(f.key)));
    for (const [i, file] of batch.entries()) {
      const data = contents[i];
      if (!data) problems.push(`${file.key} is missing from the store`);
      else if (data.length !== file.size || sha256(data) !== file.sha256)
        problems.push(`${file.key} differs from the backup (sha256)`);
      else bytesChecked += data.length;
    }
    const done = Math.min(start + READ_CONCURRENCY, manifest.files.length);
    progress({ phase: 'verify files', done, total: manifest.files.length, bytes: bytesChecked });
  }

  // Listings must not point at images the store lacks (a backup's consistency promise).
  const inManifest = new Set(manifest.files.map((f) => f.key));
  const urls = await rowsOf<{ url: string }>(
    db,
    sql`SELECT DISTINCT unnest(image_urls) AS url FROM listings`,
  );
  let listingImagesChecked = 0;
  for (const { url } of urls) {
    const id = imageIdFromUrl(url);
    if (!id) continue;
    listingImagesChecked += 1;
    const absent = imageFileKeys(id).filter((key) => !inManifest.has(key));
    if (absent.length > 0) problems.push(`a listing shows ${url} but its files are not stored`);
  }

  const verification = {
    tables,
    filesChecked: manifest.files.length,
    bytesChecked,
    listingImagesChecked,
    problems,
  };
  if (problems.length > 0) throw new VerificationError(verification);
  return verification;
}

/** What the commands print after verifying. */
export function describeVerification(v: Verification): string {
  const tables = v.tables.map((t) => `${t.name} ${t.actual}/${t.expected}`).join(', ');
  return (
    `verified: rows ${tables}; files ${v.filesChecked}/${v.filesChecked} sha256 match ` +
    `(${(v.bytesChecked / 1024 ** 2).toFixed(1)} MB); ${v.listingImagesChecked} listing images all stored`
  );
}
