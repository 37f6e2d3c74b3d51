import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CatalogueCache } from '../features/search/search-cache';
import { compressPage, PageCache } from '../plugins/page-cache';
import { CacheRoom } from './campus-cache-scope';
import { runInCampus, type CampusWork } from './campus-context';

// Only the schema names a campus's part of a cache (cacheScope); nothing else of its work is read.
const campus = (key: string) => ({ key, schema: `campus_${key}` }) as CampusWork;
const as = <T>(key: string, work: () => T): T => runInCampus(campus(key), work);

/** A cache whose loads are counted: `get` answers the kept value, else loads `key` anew. */
function countedCache(options: { maxEntries: number; room: CacheRoom; entryBytes?: number }) {
  let loads = 0;
  const cache = new CatalogueCache<string>({
    maxEntries: options.maxEntries,
    ttlMs: 60_000,
    room: options.room,
    sizeOf: () => options.entryBytes ?? 100,
  });
  return {
    cache,
    get loads() {
      return loads;
    },
    get: (key: string) =>
      cache.getOrLoad(key, async () => {
        loads += 1;
        return key;
      }),
  };
}

const MB = 1024 * 1024;

describe("the campuses' cache room (decision 024)", () => {
  it("a campus filling its cache with distinct searches evicts none of another campus's answers", async () => {
    const c = countedCache({ maxEntries: 10, room: new CacheRoom(64 * MB) });
    await as('beta', () => c.get('hot'));
    await as('gamma', () => c.get('hot'));
    for (let i = 0; i < 500; i += 1) await as('alpha', () => c.get(`search ${i}`));
    const loads = c.loads;
    // Beta's and gamma's hot answers are still kept: no load.
    expect(await as('beta', () => c.get('hot'))).toBe('hot');
    expect(await as('gamma', () => c.get('hot'))).toBe('hot');
    expect(c.loads).toBe(loads);
    // Each campus has its own room: three campuses keep more than one campus's limit together.
    expect(c.cache.size).toBe(12);
    // Alpha's own limit is a campus's: its oldest searches went.
    await as('alpha', () => c.get('search 0'));
    expect(c.loads).toBe(loads + 1);
  });

  it("keeps a single campus's limits as they were", async () => {
    const c = countedCache({ maxEntries: 10, room: new CacheRoom(1) });
    // Outside any campus (a single-campus installation): the room, however small, takes nothing.
    for (let i = 0; i < 11; i += 1) await c.get(`search ${i}`);
    expect(c.cache.size).toBe(10);
    await c.get('search 10');
    expect(c.loads).toBe(11);
    await c.get('search 0');
    expect(c.loads).toBe(12);

    const pages = new PageCache({ maxBytes: 64 * 1024, ttlMs: 60_000, room: new CacheRoom(1) });
    // Text that compresses little: a kept page is its compressed bodies only.
    const page = await compressPage(`<p>${randomBytes(2_000).toString('base64')}</p>`, 200);
    for (let i = 0; i < 200; i += 1) await pages.page(`/listing/${i}`, 1, async () => page);
    expect(pages.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(pages.bytes).toBeGreaterThan(64 * 1024 - page.bytes);
  });

  it('stays under its ceiling with 200 campuses, dropping the least recently served first', async () => {
    // 10 entries of 1,000 bytes per campus: 10,000 bytes a campus, about six campuses in the room.
    const room = new CacheRoom(64_000);
    const c = countedCache({ maxEntries: 10, room, entryBytes: 1_000 });
    const pages = new PageCache({ maxBytes: 20_000, ttlMs: 60_000, room });
    const page = await compressPage('<p>a page</p>'.repeat(40), 200);
    for (let n = 0; n < 200; n += 1) {
      for (let i = 0; i < 10; i += 1) await as(`c${n}`, () => c.get(`search ${i}`));
      await as(`c${n}`, () => pages.page('/', 1, async () => page));
      expect(room.bytes).toBeLessThanOrEqual(64_000);
    }
    // Every campus kept holds a campus's full part; none beyond the ceiling.
    expect(c.cache.size * 1_000 + pages.bytes).toBeLessThanOrEqual(64_000);
    expect(c.cache.size).toBeGreaterThanOrEqual(40);
    expect(room.parts).toBeLessThan(20);
    // Each campus's two parts were kept once; those not kept now were dropped to make room.
    expect(room.droppedParts).toBe(400 - room.parts);
    // The campus served last is kept, the first one was dropped.
    const loads = c.loads;
    await as('c199', () => c.get('search 0'));
    expect(c.loads).toBe(loads);
    await as('c0', () => c.get('search 0'));
    expect(c.loads).toBe(loads + 1);
  });

  it('counts a campus served several times in a row as its most recent, measured anew each time', async () => {
    // Entries of 1,000 bytes: room for five and a half.
    const room = new CacheRoom(5_500);
    const c = countedCache({ maxEntries: 10, room, entryBytes: 1_000 });
    await as('alpha', () => c.get('a'));
    await as('beta', () => c.get('a'));
    // Alpha served again and again (the room's newest part each time) grows by every load.
    for (const key of ['b', 'c', 'b', 'c']) await as('alpha', () => c.get(key));
    expect(room.bytes).toBe(4_000);
    // Gamma needs room: beta, served less recently than alpha, goes.
    for (const key of ['a', 'b']) await as('gamma', () => c.get(key));
    expect(room.droppedParts).toBe(1);
    const loads = c.loads;
    await as('alpha', () => c.get('c'));
    expect(c.loads).toBe(loads);
    await as('beta', () => c.get('a'));
    expect(c.loads).toBe(loads + 1);
  });

  it("empties one campus's part, or every part outside any campus", async () => {
    const room = new CacheRoom(64 * MB);
    const c = countedCache({ maxEntries: 10, room });
    for (const key of ['alpha', 'beta']) await as(key, () => c.get('hot'));
    await c.get('hot');
    c.cache.invalidate('campus_alpha');
    expect(c.cache.size).toBe(2);
    await as('beta', () => c.get('hot'));
    expect(c.loads).toBe(3);
    await as('alpha', () => c.get('hot'));
    expect(c.loads).toBe(4);
    c.cache.invalidate();
    expect(c.cache.size).toBe(0);
    // Emptied on purpose, not dropped for room.
    expect(room.droppedParts).toBe(0);
  });

  describe("the answers' ages", () => {
    afterEach(() => vi.restoreAllMocks());

    it("are read from one clock by every campus's parts, not a timer per part", async () => {
      const c = countedCache({ maxEntries: 10, room: new CacheRoom(64 * MB) });
      const pages = new PageCache({
        maxBytes: 64 * 1024,
        ttlMs: 60_000,
        room: new CacheRoom(64 * MB),
      });
      const page = await compressPage('<p>a page</p>', 200);
      const campuses = Array.from({ length: 100 }, (_, n) => `c${n}`);
      for (const key of campuses) {
        await as(key, () => c.get('hot'));
        await as(key, () => pages.page('/', 1, async () => page));
      }
      // lru-cache keeps a reading of its clock for a millisecond with a timer of its own: a hundred
      // campuses' parts, each read now and then, set a timer at nearly every look (docs/performance.md).
      const timers = vi.spyOn(globalThis, 'setTimeout');
      const started = performance.now();
      for (const key of campuses) {
        expect(await as(key, () => c.get('hot'))).toBe('hot');
        expect(await as(key, () => pages.page('/', 1, async () => null))).toBe(page);
      }
      const milliseconds = Math.ceil(performance.now() - started);
      expect(c.loads).toBe(100);
      // At most one timer per millisecond for every cache and campus together.
      expect(timers.mock.calls.length).toBeLessThanOrEqual(milliseconds + 1);
      expect(timers.mock.calls.length).toBeLessThan(100);
    });
  });
});
