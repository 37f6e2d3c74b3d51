import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** PGlite has no lock between processes, so two servers on one DATA_DIR would lose writes. */
export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The data directory ${dir} is in use by another Campus Books process (pid ${pid}). ` +
        'Stop that process first, or set DATA_DIR to another folder.',
    );
    this.name = 'DataDirInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes an exclusive pid lock file in `dir`; returns the function that releases it. */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) {
        throw new DataDirInUseError(dir, pid);
      }
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock the data directory ${dir}`);
}
