import { describe, expect, it } from 'vitest';
import { CacheRoom } from '../../campuses/campus-cache-scope';
import { keptUntilCatalogueChanges, type CatalogueFreshness } from './catalogue-kept';

/** The listing caches' freshness as PostgreSQL has it: each check reads the catalogue's version. */
function catalogue() {
  let version = 1;
  let seen = 1;
  let generation = 0;
  let versionReads = 0;
  const freshness: CatalogueFreshness = {
    generation: () => generation,
    ensureFresh: async (since) => {
      versionReads += 1;
      if (version > seen) {
        seen = version;
        generation += 1;
      }
      return generation === since;
    },
    room: new CacheRoom(1024 * 1024),
  };
  return {
    freshness,
    /** A write through another app server: no notification, only the version moves. */
    write: () => (version += 1),
    get versionReads() {
      return versionReads;
    },
  };
}

describe('keptUntilCatalogueChanges', () => {
  it('loads a missing answer without reading the version first, and checks it before reusing it', async () => {
    const c = catalogue();
    const kept = keptUntilCatalogueChanges<string>(c.freshness, { maxEntries: 10, ttlMs: 60_000 });
    expect(await kept('a', async () => 'first')).toBe('first');
    expect(c.versionReads).toBe(0);
    expect(await kept('a', async () => 'unused')).toBe('first');
    expect(c.versionReads).toBe(1);
    // Written elsewhere: the kept answer is not trusted past the version's move.
    c.write();
    expect(await kept('a', async () => 'second')).toBe('second');
    expect(c.versionReads).toBe(2);
  });

  it('reads the version before joining a load already running, which may predate a write', async () => {
    const c = catalogue();
    const kept = keptUntilCatalogueChanges<string>(c.freshness, { maxEntries: 10, ttlMs: 60_000 });
    let finish!: (value: string) => void;
    const early = kept('a', () => new Promise<string>((resolve) => (finish = resolve)));
    // Acknowledged by another server while the early load runs; then a student asks again.
    c.write();
    const late = kept('a', async () => 'after the write');
    finish('before the write');
    expect(await early).toBe('before the write');
    expect(await late).toBe('after the write');
    expect(c.versionReads).toBe(1);
  });

  it('answers a hit looked up before its fence only if nothing emptied the caches meanwhile', async () => {
    let generation = 0;
    let fence!: () => void;
    const freshness: CatalogueFreshness = {
      generation: () => generation,
      // The fence's round trip: a notification heard before it ends moves the generation.
      ensureFresh: (since) =>
        new Promise<boolean>((resolve) => (fence = () => resolve(generation === since))),
      room: new CacheRoom(1024 * 1024),
    };
    const kept = keptUntilCatalogueChanges<string>(freshness, { maxEntries: 10, ttlMs: 60_000 });
    expect(await kept('a', async () => 'first')).toBe('first');
    const quiet = kept('a', async () => 'unused');
    fence();
    expect(await quiet).toBe('first');
    const written = kept('a', async () => 'after the write');
    // A write's notification arrives while the hit waits for its fence.
    generation += 1;
    fence();
    expect(await written).toBe('after the write');
  });
});
