/**
 * A small in-memory cache of answers that only a write can change. Every state-changing request of
 * this process calls `invalidate()` before its answer is sent (listings.cache.ts), so a student who
 * has just saved a listing never searches past it. A load that started before a write is handed to
 * its waiters but not kept. Concurrent misses of one key share one load.
 */
export class WriteInvalidatedCache<V> {
  #generation = 0;
  readonly #entries = new Map<string, { value: Promise<V>; generation: number; expires: number }>();

  constructor(
    private readonly options: { maxEntries: number; ttlMs: number; now?: () => number },
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  invalidate(): void {
    this.#generation += 1;
    this.#entries.clear();
  }

  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const now = (this.options.now ?? Date.now)();
    const hit = this.#entries.get(key);
    if (hit && hit.generation === this.#generation && hit.expires > now) {
      // Most recently used last: Map keeps insertion order, the first key is the eviction victim.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.value;
    }
    const generation = this.#generation;
    const value = load();
    const entry = { value, generation, expires: now + this.options.ttlMs };
    this.#entries.delete(key);
    if (this.#entries.size >= this.options.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(key, entry);
    try {
      const result = await value;
      if (generation !== this.#generation) this.#drop(key, entry);
      return result;
    } catch (error) {
      this.#drop(key, entry);
      throw error;
    }
  }

  #drop(key: string, entry: unknown): void {
    if (this.#entries.get(key) === entry) this.#entries.delete(key);
  }
}
