import { describe, expect, it } from 'vitest';
import { CatalogueCache } from './search-cache';

function counter() {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    load: (value: string) => async () => {
      calls += 1;
      return value;
    },
  };
}

describe('CatalogueCache (lru-cache)', () => {
  it('loads once per key until invalidated', async () => {
    const cache = new CatalogueCache<string>({ maxEntries: 10, ttlMs: 60_000 });
    const c = counter();
    expect(await cache.getOrLoad('a', c.load('1'))).toBe('1');
    expect(await cache.getOrLoad('a', c.load('2'))).toBe('1');
    expect(c.calls).toBe(1);
    cache.invalidate();
    expect(await cache.getOrLoad('a', c.load('3'))).toBe('3');
    expect(c.calls).toBe(2);
  });

  it('shares one load between concurrent misses', async () => {
    const cache = new CatalogueCache<string>({ maxEntries: 10, ttlMs: 60_000 });
    const c = counter();
    const answers = await Promise.all([1, 2, 3].map(() => cache.getOrLoad('a', c.load('x'))));
    expect(answers).toEqual(['x', 'x', 'x']);
    expect(c.calls).toBe(1);
  });

  it('does not keep what a load read while a write happened', async () => {
    const cache = new CatalogueCache<string>({ maxEntries: 10, ttlMs: 60_000 });
    let release!: (v: string) => void;
    const slow = cache.getOrLoad('a', () => new Promise<string>((r) => (release = r)));
    cache.invalidate(); // a write commits while the read is running
    release('before the write');
    expect(await slow).toBe('before the write');
    expect(await cache.getOrLoad('a', async () => 'after the write')).toBe('after the write');
  });

  it('forgets failed loads, expired entries and the least recently used beyond its size', async () => {
    // Not 0: lru-cache takes a start time of 0 for "no TTL".
    let now = 1_000_000;
    const cache = new CatalogueCache<string>({
      maxEntries: 2,
      ttlMs: 1_000,
      now: () => now,
    });
    await expect(
      cache.getOrLoad('a', () => Promise.reject(new Error('database down'))),
    ).rejects.toThrow('database down');
    expect(await cache.getOrLoad('a', async () => 'a1')).toBe('a1');
    await cache.getOrLoad('b', async () => 'b1');
    await cache.getOrLoad('a', async () => 'unused'); // a is now the most recently used
    await cache.getOrLoad('c', async () => 'c1'); // evicts b
    expect(cache.size).toBe(2);
    expect(await cache.getOrLoad('a', async () => 'a2')).toBe('a1');
    expect(await cache.getOrLoad('b', async () => 'b2')).toBe('b2');
    now += 5_000;
    expect(await cache.getOrLoad('b', async () => 'b3')).toBe('b3');
  });
});
