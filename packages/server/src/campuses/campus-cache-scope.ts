import { LRUCache } from 'lru-cache';
import { currentCampusWork } from './campus-context';

/** CACHE_MEMORY_MB's default: the caches of a many-campus installation's campuses together. */
export const DEFAULT_CACHE_MEMORY_MB = 1024;

/**
 * The campus whose answers the work at hand may keep and read in memory: its schema, or '' outside
 * any campus (a single-campus installation; the default campus of a many-campus one).
 */
export function cacheScope(): string {
  return currentCampusWork()?.schema ?? '';
}

let clockReading = 0;

/**
 * The clock the campuses' LRUs read for their entries' ages: one reading shared by every cache and
 * campus for a millisecond. lru-cache's own reuse of a reading is per cache, with a timer each
 * millisecond it is read: with a hundred campuses' parts, each read now and then, nearly every look
 * set a timer of its own (a fifth of a kept answer's time at 100 campuses, docs/performance.md).
 */
export function sharedCacheClock(): number {
  if (clockReading === 0) {
    clockReading = performance.now();
    setTimeout(() => {
      clockReading = 0;
    }, 1).unref();
  }
  return clockReading;
}

/** What the room needs of a campus's part of a cache: the bytes it holds (lru-cache's count). */
interface KeptPart {
  readonly calculatedSize: number;
  clear(): void;
}

/**
 * The memory the caches of a many-campus installation's campuses share (CACHE_MEMORY_MB, decision
 * 024): every cache's part for each campus of the directory is one entry of an LRU (lru-cache)
 * whose `maxSize` is the ceiling and whose `sizeCalculation` is the bytes the part holds, measured
 * again after each use. Past the ceiling the least recently used campus's part is dropped whole.
 * So the room grows with the campuses served, each keeping one campus's limits, up to the ceiling;
 * a part bigger than the ceiling alone is not kept. The default campus's parts (scope '') are not
 * in it: they keep their own limits, as in a single-campus installation.
 */
export class CacheRoom {
  // Boxed with its measure: lru-cache measures an entry again only when it is set to another
  // value, and a part is set again only when its bytes changed (not on every answer it serves).
  readonly #parts: LRUCache<string, { part: KeptPart; bytes: number }>;
  readonly #dropped = new Map<string, (scope: string, part: KeptPart) => void>();

  /** Campuses' parts the room let go to stay under its bytes (not those emptied on purpose). */
  #droppedParts = 0;

  /**
   * The part kept last, with its box: a request keeps and measures the same part several times in
   * a row, and the most recently used needs no look in the LRU to stay so (docs/performance.md).
   */
  #newestKey: string | undefined;
  #newestBox: { part: KeptPart; bytes: number } | undefined;

  constructor(readonly maxBytes: number) {
    this.#parts = new LRUCache<string, { part: KeptPart; bytes: number }>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: ({ bytes }) => Math.max(1, bytes),
      dispose: ({ part }, key, reason) => {
        if (key === this.#newestKey) this.#newestKey = this.#newestBox = undefined;
        if (reason === 'set') return; // measured again: the same part in a new box
        if (reason === 'evict') this.#droppedParts += 1;
        part.clear();
        const [cache = '', scope = ''] = key.split('\u0000');
        this.#dropped.get(cache)?.(scope, part);
      },
    });
  }

  /** Bytes held by the campuses' parts, as last measured. */
  get bytes(): number {
    return this.#parts.calculatedSize;
  }

  /** Campuses' parts kept, every cache's. */
  get parts(): number {
    return this.#parts.size;
  }

  /** Campuses' parts dropped so far to make room (what thrashing looks like: it keeps rising). */
  get droppedParts(): number {
    return this.#droppedParts;
  }

  /** A name for a cache's parts in the room; `dropped` hears each part the room lets go. */
  register(dropped: (scope: string, part: KeptPart) => void): string {
    const name = String(this.#dropped.size);
    this.#dropped.set(name, dropped);
    return name;
  }

  /** The key of cache `name`'s part for `scope` (made once per part: CampusParts keeps it). */
  keyOf(name: string, scope: string): string {
    return `${name}\u0000${scope}`;
  }

  /** Whether `part`, under `key`, is the part kept last, at the bytes it was measured at. */
  #isNewest(key: string, part: KeptPart): boolean {
    const box = this.#newestBox;
    return key === this.#newestKey && box?.part === part && box.bytes === part.calculatedSize;
  }

  #setNewest(key: string, box: { part: KeptPart; bytes: number }): void {
    this.#newestKey = key;
    this.#newestBox = box;
  }

  /** Keeps (or keeps again, as the most recently used, measured anew) `part` under `key` (keyOf). */
  keep(key: string, part: KeptPart): void {
    if (this.#isNewest(key, part)) return;
    let box = this.#parts.get(key);
    if (box?.part !== part || box.bytes !== part.calculatedSize) {
      box = { part, bytes: part.calculatedSize };
      this.#parts.set(key, box);
    }
    this.#setNewest(key, box);
  }

  /** Measures `part` again if it is still kept under `key` (a load into it has settled). */
  measure(key: string, part: KeptPart): void {
    if (this.#isNewest(key, part)) return;
    const kept = this.#parts.peek(key);
    if (kept?.part === part && kept.bytes !== part.calculatedSize) {
      const box = { part, bytes: part.calculatedSize };
      this.#parts.set(key, box);
      this.#setNewest(key, box);
    }
  }

  drop(key: string): void {
    this.#parts.delete(key);
  }
}

/**
 * One cache's parts, one LRU per campus (decision 024), each made by `make` with the limits one
 * campus has always had: a busy campus evicts its own answers, never another's. Keys need no
 * campus: a part is read only by work done as its campus. The campuses' parts are kept in `room`;
 * emptying a campus's part drops it whole, so a load that was running then lands in a part nothing
 * reads again. The scope '' (outside any campus) is the default campus's part, always kept, and
 * emptying it empties every campus's part too, as a notification without a campus asks.
 */
export class CampusParts<P extends KeptPart> {
  readonly #make: () => P;
  readonly #room: CacheRoom;
  readonly #name: string;
  readonly #default: P;
  /** Each campus's part, with its key in the room. */
  readonly #campuses = new Map<string, { part: P; key: string }>();

  constructor(make: () => P, room: CacheRoom) {
    this.#make = make;
    this.#room = room;
    this.#default = make();
    this.#name = room.register((scope, part) => {
      if (this.#campuses.get(scope)?.part === part) this.#campuses.delete(scope);
    });
  }

  /** `scope`'s part, made if missing, now its room's most recently used. */
  of(scope: string): P {
    if (scope === '') return this.#default;
    let kept = this.#campuses.get(scope);
    if (!kept) {
      kept = { part: this.#make(), key: this.#room.keyOf(this.#name, scope) };
      this.#campuses.set(scope, kept);
    }
    this.#room.keep(kept.key, kept.part);
    return kept.part;
  }

  /** Tells the room what `scope`'s part holds now (after a load settled into it). */
  measure(scope: string, part: P): void {
    if (scope !== '') this.#room.measure(this.#campuses.get(scope)?.key ?? '', part);
  }

  /** Empties `scope`'s part; the scope '' empties every part. */
  empty(scope: string): void {
    if (scope !== '') {
      this.#room.drop(this.#room.keyOf(this.#name, scope));
      return;
    }
    this.#default.clear();
    for (const { key } of [...this.#campuses.values()]) this.#room.drop(key);
  }

  /** Every part kept, the default campus's first. */
  *parts(): Iterable<P> {
    yield this.#default;
    for (const { part } of this.#campuses.values()) yield part;
  }
}
