import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gunzipSync, gzip } from 'node:zlib';
import { relativeTextChangesAt } from '@campus-books/common/relative-time';
import {
  cacheScope,
  CampusParts,
  sharedCacheClock,
  type CacheRoom,
} from '../campuses/campus-cache-scope';
import { keptBytes } from '../lib/kept-bytes';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export const PAGE_ENCODINGS = ['br', 'gzip'] as const;
export type PageEncoding = (typeof PAGE_ENCODINGS)[number] | 'identity';

/**
 * A server-rendered page kept for signed-out visitors: its compressed bodies, one ETag for each
 * encoding. The uncompressed body is not kept (two thirds of a page's memory, asked for by no
 * browser): `bodyOf` makes it again from the gzip body for the rare client that accepts neither.
 */
export interface CachedPage {
  status: number;
  bodies: Record<Exclude<PageEncoding, 'identity'>, Buffer>;
  etags: Record<PageEncoding, string>;
  bytes: number;
  /** What it was rendered from, when known: a render from the same reads the same (`readsTheSame`). */
  basis: PageBasis | null;
}

/** What a page was rendered from, beside the clock. */
export interface PageBasis {
  /** A hash of every input of the render but its time: the shell, the page's data, the campus. */
  inputs: string;
  /**
   * The first moment a date it shows relative to its render ("listed 3 days ago", "confirmed
   * available today") reads otherwise; Infinity when it shows none.
   */
  readsTrueUntil: number;
}

/** A date as the page's data carries it: `toISOString`'s form (a database's offset allowed). */
const DATE_IN_JSON = /"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d))"/g;

/**
 * The basis of a page rendered at `renderedAt` from `inputs` and its data (`dataJson`). Every date
 * in the data is taken as one the page may show relative to now: a date it does not show can only
 * make it render again sooner than it had to.
 */
export function pageBasis(
  inputs: readonly string[],
  dataJson: string,
  renderedAt: number,
): PageBasis {
  const hash = createHash('sha256');
  for (const input of inputs) hash.update(input).update('\0');
  let readsTrueUntil = Infinity;
  for (const [, iso] of dataJson.matchAll(DATE_IN_JSON)) {
    readsTrueUntil = Math.min(readsTrueUntil, relativeTextChangesAt(iso!, renderedAt));
  }
  return { inputs: hash.update(dataJson).digest('base64url'), readsTrueUntil };
}

/**
 * Whether `kept`, rendered earlier, is what a render from `basis` at `now` would give: the same
 * inputs, and no relative date in it reading otherwise yet. (Its own time is the one it shows and
 * hydrates with, so it stays whole.)
 */
export function readsTheSame(kept: CachedPage, basis: PageBasis, now: number): boolean {
  return (
    kept.basis !== null && kept.basis.inputs === basis.inputs && now < kept.basis.readsTrueUntil
  );
}

/** The page's body in `encoding`. */
export function bodyOf(page: CachedPage, encoding: PageEncoding): Buffer {
  return encoding === 'identity' ? gunzipSync(page.bodies.gzip) : page.bodies[encoding];
}

const etagOf = (body: Buffer) =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

/**
 * A rendered page in every encoding, compressed once: brotli at quality 5 (a 30 KB page in about a
 * millisecond, within a few percent of quality 11's size), gzip at level 6.
 */
export async function compressPage(
  html: string,
  status: number,
  basis: PageBasis | null = null,
): Promise<CachedPage> {
  const identity = Buffer.from(html, 'utf8');
  const [br, gz] = await Promise.all([
    brotli(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gzipped(identity, { level: 6 }),
  ]);
  return {
    status,
    bodies: { br: keptBytes(br), gzip: keptBytes(gz) },
    etags: { identity: etagOf(identity), br: etagOf(br), gzip: etagOf(gz) },
    bytes: br.length + gz.length,
    basis,
  };
}

/**
 * How often, at most, a page past its `ttlMs` is looked at again in the background: one at a time,
 * and the next no sooner than this after the last began (a render is ~6 ms of CPU: about 6 % of a
 * core; a page found unchanged, its data loaded again, a fraction of that). A page past its time
 * asked for while it is not its turn is answered as it is, from a plain look in the LRU: with 100
 * campuses' course pages past their time, looks through lru-cache's `fetch` (a promise and an abort
 * controller each) for pages waiting their turn were most answers (docs/performance.md, "Listing by
 * id and course pages at 100 campuses", and "Pages that did not change").
 */
const REFRESH_SPACING_MS = 100;

/**
 * Renders a page: the first time (`kept` undefined), or again once past its time, when it may answer
 * `kept` itself if a render would read the same (`readsTheSame`). Null: not rendered.
 */
export type PageRender = (kept: CachedPage | undefined) => Promise<CachedPage | null>;

/**
 * Rendered pages by address, in an LRU (lru-cache) capped by the bytes it holds: a page past an
 * eighth of the budget is not kept. Visitors who ask for an address while it renders share that
 * render (lru-cache's `fetch`). Pages follow the listing caches' generation
 * (features/search/listing-caches.ts): the first look after it moved empties the cache, so a page
 * of an older catalogue is never answered and its memory is given back at once; a render that was
 * running then is handed to its waiters but not kept (`ignoreFetchAbort`, as in
 * features/search/search-cache.ts).
 *
 * What a page shows beside the catalogue (a listing's demand line, a course's required books) ages
 * with it: a page older than `ttlMs` is rendered again, in the background, while visitors are
 * answered the page kept (lru-cache's `allowStale` with `fetch`). Those renders take their turn
 * (`REFRESH_SPACING_MS`): 100 campuses' 200 course pages each, all asked for, are 20,000 renders a
 * minute, more than a core makes; without turns the server spent its time rendering again pages it
 * already had (the many-campus bench's course pages, 0.03–0.09 × one campus's rate). A busy server's
 * pages are then older than `ttlMs`, never older than the catalogue. A turn loads the page's data
 * again, and renders only when the page would read otherwise (`readsTheSame`): most pages past
 * their minute are unchanged, and loading is a fraction of a render's CPU.
 */
export class PageCache {
  readonly #pages: CampusParts<LRUCache<string, CachedPage, PageRender>>;
  /** By campus ('' for a single-campus installation): the generation its pages were rendered in. */
  readonly #generations = new Map<string, number>();
  /** The page being rendered again in the background; the next may begin at `#nextRefreshAt`. */
  #refreshing: Promise<unknown> | null = null;
  #nextRefreshAt = -Infinity;
  readonly #now: () => number;

  /**
   * `maxBytes` is each campus's; `room` is what the campuses' parts share (campus-cache-scope.ts);
   * `now`, a test's clock (milliseconds).
   */
  constructor(options: { maxBytes: number; ttlMs: number; room: CacheRoom; now?: () => number }) {
    this.#now = options.now ?? (() => performance.now());
    const make = () =>
      new LRUCache<string, CachedPage, PageRender>({
        maxSize: Math.max(1, options.maxBytes),
        maxEntrySize: Math.max(1, Math.floor(options.maxBytes / 8)),
        sizeCalculation: (page) => page.bytes,
        ttl: options.ttlMs,
        // A page past its time is answered while it renders again (or waits for its turn).
        allowStale: true,
        noDeleteOnStaleGet: true,
        ignoreFetchAbort: true,
        fetchMethod: async (_key, stale, { context: render }) => {
          // A failed render (null) answers the shell and is not kept; a failed render of a page
          // kept before leaves that page.
          if (!stale) return (await render(undefined)) ?? undefined;
          // Past its time, and its turn (`page`).
          const refresh = render(stale);
          this.#refreshing = refresh;
          try {
            // The page kept itself when a render from what it reads now would read the same; a
            // render that failed (it logs its own error) leaves it as it is.
            return (await refresh.catch(() => null)) ?? stale;
          } finally {
            this.#refreshing = null;
          }
        },
        // A test's clock, or the one every campus's part shares; read at every look (lru-cache's own
        // reuse of a reading sets a timer per cache).
        perf: { now: options.now ?? sharedCacheClock },
        ttlResolution: 0,
      });
    this.#pages = new CampusParts(make, options.room);
  }

  /** Once the page being rendered again in the background, if any, is done (a stop waits for it). */
  async settled(): Promise<void> {
    await this.#refreshing?.catch(() => undefined);
  }

  /** Pages kept, every campus's. */
  get size(): number {
    let size = 0;
    for (const part of this.#pages.parts()) size += part.size;
    return size;
  }

  /** Bytes of the pages kept, every campus's. */
  get bytes(): number {
    let bytes = 0;
    for (const part of this.#pages.parts()) bytes += part.calculatedSize;
    return bytes;
  }

  /**
   * The page kept for `key` in this `generation`, else the one `render` gives (null: not rendered).
   * While one process serves several campuses (decision 024) a campus's pages are its own, in an
   * LRU of its own with `maxBytes` (campus-cache-scope.ts), and its generation empties them only;
   * the campuses' LRUs share the cache room (CACHE_MEMORY_MB).
   */
  async page(path: string, generation: number, render: PageRender): Promise<CachedPage | null> {
    const scope = cacheScope();
    if (generation !== (this.#generations.get(scope) ?? -1)) {
      this.#generations.set(scope, generation);
      this.#pages.empty(scope);
    }
    const pages = this.#pages.of(scope);
    try {
      const status: LRUCache.Status<string, CachedPage, PageRender> = {};
      const kept = pages.get(path, { status });
      if (kept !== undefined) {
        if (status.get === 'stale' && !this.#refreshing) {
          const at = this.#now();
          if (at >= this.#nextRefreshAt) {
            this.#nextRefreshAt = at + REFRESH_SPACING_MS;
            // In the background: lru-cache hands the render the page kept and answers that page.
            void pages.fetch(path, { context: render });
          }
        }
        return kept;
      }
      const page = await pages.fetch(path, { context: render });
      // Only a found page is kept: unknown listings are not worth memory.
      if (page && page.status !== 200 && pages.peek(path) === page) pages.delete(path);
      return page ?? null;
    } finally {
      this.#pages.measure(scope, pages);
    }
  }
}
