import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTestFile, readSource, sourceFiles } from './source-files';

/**
 * Issue 41 item 2: the server's caches and in-flight loads are one well-kept library's (lru-cache:
 * a size limit, a TTL, concurrent misses sharing one load), not hand-written Maps with a size check.
 *
 * 1. Every server file named *cache*.ts keeps its entries in lru-cache: it imports it, or builds on
 *    a file that does (search-cache.ts's CatalogueCache, catalogue-kept.ts), or is listed here.
 * 2. Every Map made where the search, listing, page and book caches live is listed by name with its
 *    reason (none of them a cache of answers): a new one fails until it is an lru-cache or listed.
 */
const NOT_A_STORE: Record<string, string> = {
  'packages/server/src/features/search/caches.ts':
    'the types of the caches a search may use; the caches are listing-caches.ts',
};

/** Where the caches live: each Map there, by file and name, with why it is not a cache to bound. */
const CACHE_PLACES = [
  'packages/server/src/features/search/',
  'packages/server/src/features/books/',
  'packages/server/src/plugins/page-cache.ts',
];
const MAPS: Record<string, Record<string, string>> = {
  'packages/server/src/features/search/listing-caches.ts': {
    scopes: 'one entry per campus of the installation (its generation), never evicted',
    hearing: 'one entry per PostgreSQL server holding campuses (whether its LISTEN is up)',
  },
  'packages/server/src/features/search/catalogue-kept.ts': {
    keptFor: 'one entry per campus: the generation its answers were kept in',
  },
  'packages/server/src/features/search/consortium-search.ts': {
    keptPagesOf:
      "one entry per app (its listing caches): the campuses' parts of searches across campuses, kept in an lru-cache",
  },
  'packages/server/src/features/search/terms.ts': {
    words: "one search's words while its term is resolved, dropped with it",
  },
  'packages/server/src/features/books/books.service.ts': {
    inFlight:
      'lookups running now: an entry lives only while its lookup runs; what it found is kept by the books table',
  },
  'packages/server/src/features/books/books.routes.ts': {
    coverImports: 'cover imports running now: an entry lives only while its import runs',
  },
  'packages/server/src/plugins/page-cache.ts': {
    '#generations': 'one entry per campus: the generation its pages were rendered in',
  },
  'packages/server/src/campuses/campus-cache-scope.ts': {
    '#campuses':
      "a cache's LRU per campus, each an lru-cache, let go when the room (an lru-cache of them) drops it",
    '#dropped': 'one entry per cache sharing the room: whom to tell when it drops a part',
  },
};

const serverFiles = () =>
  sourceFiles().filter((file) => file.startsWith('packages/server/src/') && !isTestFile(file));

const importsLruCache = (source: string) => /from 'lru-cache'/.test(source);

/** The files a file imports values from (not `import type`), by relative specifier. */
function valueImportsOf(file: string, source: string): string[] {
  return [...source.matchAll(/^import (?!type )[^;]*? from '(\.[^']+)';/gms)].map((match) =>
    path.posix.join(path.posix.dirname(file), `${match[1]!}.ts`),
  );
}

describe('the caches', () => {
  it('every file named *cache*.ts keeps its entries in lru-cache, directly or through one that does', () => {
    const files = serverFiles();
    // The files whose entries are in lru-cache: those importing it, then those building on them.
    const onLibrary = new Set(files.filter((file) => importsLruCache(readSource(file))));
    expect(onLibrary.size).toBeGreaterThan(3);
    for (let grew = true; grew;) {
      grew = false;
      for (const file of files) {
        if (onLibrary.has(file)) continue;
        if (valueImportsOf(file, readSource(file)).some((used) => onLibrary.has(used))) {
          onLibrary.add(file);
          grew = true;
        }
      }
    }
    const cacheFiles = files.filter((file) => /cache/i.test(path.posix.basename(file)));
    expect(cacheFiles.length).toBeGreaterThan(4);
    const handWritten = cacheFiles.filter((file) => !onLibrary.has(file) && !NOT_A_STORE[file]);
    expect(handWritten).toEqual([]);
    // A listed file that came to use the library is taken off the list.
    expect(Object.keys(NOT_A_STORE).filter((file) => onLibrary.has(file))).toEqual([]);
  });

  it('every Map where the caches live is listed with its reason (none is a cache of answers)', () => {
    const files = serverFiles().filter(
      (file) =>
        CACHE_PLACES.some((place) => file.startsWith(place)) ||
        /cache/i.test(path.posix.basename(file)),
    );
    const found: Record<string, string[]> = {};
    for (const file of files) {
      const names = [
        ...readSource(file).matchAll(/([#\w]+)\s*(?::[^=;]+)?=\s*new (?:Map|WeakMap)\b/g),
      ].map((match) => match[1]!);
      if (names.length > 0) found[file] = names.sort();
    }
    const listed = Object.fromEntries(
      Object.entries(MAPS).map(([file, names]) => [file, Object.keys(names).sort()]),
    );
    expect(found).toEqual(listed);
  });
});
