import type { Storage } from '../lib/storage/storage';
import { currentCampusWork } from './campus-context';

/** The folder of the store that holds every campus's files but the default campus's. */
const CAMPUS_FILES = 'campuses/';

/**
 * Where a campus's files live in the store every campus shares (decision 024): `campuses/<key>/`,
 * then the same keys as the default campus's (`images/<id>/…`, `tus/<id>/…`, `exports/…`). The
 * default campus keeps the store's root, so a single-campus installation's files stay where they are.
 */
export function campusStoragePrefix(key: string | null): string {
  return key === null ? '' : `${CAMPUS_FILES}${key}/`;
}

/**
 * A store as one campus sees it: every key it is given is put under the campus's prefix, and the
 * keys it lists come back without it. A key built from another campus's id therefore names a file
 * of this campus's (none), and the default campus's view refuses the other campuses' folder, so no
 * campus reads, lists or deletes another's files, whatever key it is asked for.
 */
export function storageOfCampus(shared: Storage, key: string | null): Storage {
  const prefix = campusStoragePrefix(key);
  const inside = (name: string) => {
    if (prefix === '' && name.startsWith(CAMPUS_FILES)) {
      throw new Error(`Unsafe storage key: ${JSON.stringify(name)} (another campus's files)`);
    }
    return `${prefix}${name}`;
  };
  return {
    kind: shared.kind,
    put: async (name, body, contentType) => shared.put(inside(name), body, contentType),
    get: async (name) => shared.get(inside(name)),
    delete: async (name) => shared.delete(inside(name)),
    async list(start) {
      if (prefix === '') {
        const objects = await shared.list(start);
        return objects.filter((o) => !o.key.startsWith(CAMPUS_FILES));
      }
      const objects = await shared.list(inside(start));
      return objects.map((o) => ({ key: o.key.slice(prefix.length), size: o.size }));
    },
    close: () => shared.close(),
  };
}

/**
 * The store as the app sees it in a many-campus installation (as `campusAwareDatabase` is the
 * database): each call is the campus's at work (a request's, a job's, campus-context.ts), the
 * default campus's outside any. Deps built when routes were registered therefore still write,
 * read and delete in each request's campus's folder only.
 */
export function campusAwareStorage(shared: Storage): Storage {
  const views = new Map<string | null, Storage>();
  const current = () => {
    const key = currentCampusWork()?.key ?? null;
    let view = views.get(key);
    if (!view) views.set(key, (view = storageOfCampus(shared, key)));
    return view;
  };
  return {
    kind: shared.kind,
    put: (name, body, contentType) => current().put(name, body, contentType),
    get: (name) => current().get(name),
    list: (start) => current().list(start),
    delete: (name) => current().delete(name),
    close: () => shared.close(),
  };
}
