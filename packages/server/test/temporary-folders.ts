import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const made = new Set<string>();

/**
 * A new folder under the OS temporary folder, removed when the test file that made it ends
 * (test/remove-temporary-folders.ts, a set-up file of every server suite), whether or not its
 * tests passed.
 */
export function temporaryFolder(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  made.add(folder);
  return folder;
}

/** Removes every folder temporaryFolder() made and this process has not removed yet. */
export function removeTemporaryFolders(): void {
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
  made.clear();
}
