import { chmodSync, statSync, type Stats } from 'node:fs';
import { chmod, lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** The permission bits no file or folder of DATA_DIR may have: group and others get nothing. */
const GROUP_AND_OTHERS = 0o077;

export interface PrivateDataDirResult {
  /** Files and folders whose mode was tightened. */
  changed: number;
  /** Paths that could not be read or changed (another account's files), with the reason. */
  problems: string[];
}

const privateMode = (stats: Stats) => (stats.isDirectory() ? 0o700 : stats.mode & 0o700);
const isOpen = (stats: Stats) => (stats.mode & GROUP_AND_OTHERS) !== 0;

/**
 * Closes DATA_DIR itself (0700) at once, so no other local account can reach anything in it. Sync,
 * before anything is opened; nothing to do when it does not exist yet (the umask covers it then).
 */
export function closeDataDir(dataDir: string): void {
  try {
    const stats = statSync(dataDir); // DATA_DIR itself may be a link to where the data lives
    if (stats.isDirectory() && isOpen(stats)) chmodSync(dataDir, 0o700);
  } catch {
    // missing: created private later; not ours to change: the walk reports it
  }
}

/**
 * Makes DATA_DIR private to the server's account: the folder and every folder in it 0700, every
 * file 0600 (the database holds password hashes and live sessions, the outbox live reset links).
 * Installations from before were readable by every local account, and the embedded database writes
 * the files of a fresh database world-readable whatever the umask. One pass, iterative (no recursion,
 * however deep the tree), never following a symbolic link out of DATA_DIR, changing only what needs it.
 */
export async function makeDataDirPrivate(dataDir: string): Promise<PrivateDataDirResult> {
  const result: PrivateDataDirResult = { changed: 0, problems: [] };
  const tighten = async (file: string, stats: Stats) => {
    if (!isOpen(stats)) return;
    try {
      await chmod(file, privateMode(stats));
      result.changed += 1;
    } catch (error) {
      result.problems.push(`${file}: ${(error as Error).message}`);
    }
  };

  const root = await stat(dataDir).catch(() => undefined);
  if (!root?.isDirectory()) return result;
  await tighten(dataDir, root);

  const folders = [dataDir];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      result.problems.push(`${folder}: ${(error as Error).message}`);
      continue;
    }
    await Promise.all(
      names.map(async (name) => {
        const file = path.join(folder, name);
        const stats = await lstat(file).catch(() => undefined); // removed meanwhile
        if (!stats || stats.isSymbolicLink()) return; // a link's target may be outside DATA_DIR
        if (stats.isDirectory()) folders.push(file);
        if (stats.isDirectory() || stats.isFile()) await tighten(file, stats);
      }),
    );
  }
  return result;
}
