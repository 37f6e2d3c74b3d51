import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export const PAGE_ENCODINGS = ['br', 'gzip'] as const;
export type PageEncoding = (typeof PAGE_ENCODINGS)[number] | 'identity';

/** A server-rendered page kept for signed-out visitors: its bodies in each encoding, one ETag each. */
export interface CachedPage {
  status: number;
  bodies: Record<PageEncoding, Buffer>;
  etags: Record<PageEncoding, string>;
  /** The listing caches' generation the page's data was loaded in (listings.cache.ts). */
  generation: number;
  expires: number;
  bytes: number;
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
  generation: number,
  expires: number,
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
  const bodies = { identity, br, gzip: gz };
  return {
    status,
    bodies,
    etags: { identity: etagOf(identity), br: etagOf(br), gzip: etagOf(gz) },
    generation,
    expires,
    bytes: identity.length + br.length + gz.length,
  };
}

/**
 * A least-recently-used map of rendered pages capped by the bytes it holds. A page of another
 * generation than the caches' current one is never answered, and the first look after the
 * generation moves empties the map (the memory of stale pages is given back at once).
 */
export class PageCache {
  readonly #entries = new Map<string, CachedPage>();
  #bytes = 0;
  #generation = -1;

  constructor(private readonly options: { maxBytes: number; now?: () => number }) {}

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  get(key: string, generation: number): CachedPage | undefined {
    this.#follow(generation);
    const page = this.#entries.get(key);
    if (!page) return undefined;
    if (page.generation !== generation || page.expires <= (this.options.now ?? Date.now)()) {
      this.delete(key);
      return undefined;
    }
    // Most recently used last: the first key in insertion order is the eviction victim.
    this.#entries.delete(key);
    this.#entries.set(key, page);
    return page;
  }

  set(key: string, page: CachedPage, generation: number): void {
    this.#follow(generation);
    if (page.generation !== generation || page.bytes > this.options.maxBytes / 8) return;
    this.delete(key);
    this.#entries.set(key, page);
    this.#bytes += page.bytes;
    for (const [oldest, old] of this.#entries) {
      if (this.#bytes <= this.options.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= old.bytes;
    }
  }

  delete(key: string): void {
    const page = this.#entries.get(key);
    if (!page) return;
    this.#entries.delete(key);
    this.#bytes -= page.bytes;
  }

  #follow(generation: number): void {
    if (generation === this.#generation) return;
    this.#generation = generation;
    this.clear();
  }
}
