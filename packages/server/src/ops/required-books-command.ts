import { readFile, stat } from 'node:fs/promises';
import type { Config } from '../config/config';
import { openDatabase } from '../db/database';
import { DataDirInUseError } from '../db/data-dir-lock';
import { importRequiredBooks } from '../features/courses/required-books';
import { embeddedDbDir } from './targets';

/** The largest adoption list read: a campus's is a few hundred KB. */
const MAX_FILE_BYTES = 20 * 1024 * 1024;

/** A list with bad rows: each is on its own line of the message, and nothing was imported. */
export class RequiredBooksRefused extends Error {
  override name = 'RequiredBooksRefused';
}

/**
 * `npm run import-required-books -- <file.csv>`: replaces the campus's required-books list with the
 * file's (docs/operations.md). Against DATABASE_URL while servers run, or the embedded database of a
 * stopped server (it holds DATA_DIR's lock). The database is migrated first, as a start would.
 */
export async function runImportRequiredBooks(run: {
  config: Config;
  file: string;
}): Promise<string> {
  const { size } = await stat(run.file);
  if (size > MAX_FILE_BYTES) {
    throw new RequiredBooksRefused(`${run.file} is larger than 20 MB: is it the adoption list?`);
  }
  const csv = await readFile(run.file, 'utf8');
  let database;
  try {
    database = await openDatabase(
      run.config.databaseUrl
        ? { engine: 'postgres', url: run.config.databaseUrl, poolSize: 3 }
        : { engine: 'pglite', dataDir: embeddedDbDir(run.config.dataDir) },
    );
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      throw new Error(`${error.message} Stop the server to import into its embedded database.`);
    }
    throw error;
  }
  try {
    const result = await importRequiredBooks(database.db, csv);
    if (result.errors.length > 0) {
      const lines = result.errors.map((e) => `  line ${e.line}: ${e.message}`);
      throw new RequiredBooksRefused(
        `${run.file}: ${result.errors.length} problem(s), nothing was imported:\n${lines.join('\n')}`,
      );
    }
    return `Imported ${result.imported} required or optional books from ${run.file}; the previous list was replaced.`;
  } finally {
    await database.close();
  }
}
