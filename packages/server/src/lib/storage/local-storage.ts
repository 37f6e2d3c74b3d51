import { randomUUID } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertSafeKey, type Storage, type StoredObject } from './storage';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Files under one directory (DATA_DIR/uploads); writes go through a temp file and a rename. */
export function createLocalStorage(root: string): Storage {
  const resolve = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };

  async function walk(dir: string, relative: string, into: StoredObject[]) {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.tmp-')) continue;
      const key = relative ? `${relative}/${entry.name}` : entry.name;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, key, into);
      else if (entry.isFile()) {
        // A file deleted between readdir and stat (a concurrent deletion) is simply not listed.
        const size = await stat(full).then(
          (s) => s.size,
          (error: unknown) => {
            if (isMissing(error)) return null;
            throw error;
          },
        );
        if (size !== null) into.push({ key, size });
      }
    }
  }

  return {
    kind: 'local',
    async put(key, body) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      const temp = path.join(path.dirname(file), `.tmp-${randomUUID()}`);
      await writeFile(temp, body);
      await rename(temp, file);
    },
    async get(key) {
      try {
        return await readFile(resolve(key));
      } catch (error) {
        if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return null;
        throw error;
      }
    },
    async list(prefix) {
      // Walk only the deepest directory the prefix names, then filter by the rest of it.
      const dirPart = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
      if (dirPart) assertSafeKey(dirPart);
      const found: StoredObject[] = [];
      await walk(path.join(root, dirPart), dirPart, found);
      return found
        .filter((o) => o.key.startsWith(prefix))
        .sort((a, b) => a.key.localeCompare(b.key));
    },
    async delete(key) {
      const file = resolve(key);
      try {
        await unlink(file);
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
      // Drop the emptied directory (one image's folder); ignore when something is still in it.
      if (path.dirname(file) !== root) await rmdir(path.dirname(file)).catch(() => {});
    },
    async close() {},
  };
}
