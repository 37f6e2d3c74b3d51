import type { ClientBase, Pool } from 'pg';
import { pointAt } from './campus-pool';
import { quoted } from './campus-schema';

/**
 * The catalogue versions of the campuses of one PostgreSQL server, read together (decision 024).
 *
 * A cached answer is served only after a read of its campus's catalogue version that started after
 * the request arrived (features/search/listing-caches.ts, decision 006). One campus's requests share
 * such reads (one per round trip), but a hundred campuses' requests, arriving mixed, would each
 * need a read of their own on a connection pointed at their campus: a round trip to point it and
 * one to read, per request. Here every campus of a server that needs a read while one is in flight
 * waits for the next, and that next read asks every waiting campus's version in one statement, on
 * a connection of the login role (which may read each campus's `catalogue_version`, granted when
 * the campus is migrated: campus-catalogue.ts): one statement per round trip per server, whatever
 * the number of campuses. A read that fails (a campus dropped or moved meanwhile, a grant missing)
 * fails every waiter of its batch, and each reads its own campus's version alone instead.
 */

interface Waiter {
  resolve(version: number): void;
  reject(error: unknown): void;
}

class ServerVersionReads {
  /** Campuses waiting for the next read, by schema. */
  #waiting = new Map<string, Waiter[]>();
  #reading = false;

  constructor(private readonly pool: Pool) {}

  read(schema: string): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      quoted(schema); // a plain identifier, or a refusal here rather than a failed batch
      const waiters = this.#waiting.get(schema) ?? [];
      waiters.push({ resolve, reject });
      this.#waiting.set(schema, waiters);
      if (!this.#reading) void this.#next();
    });
  }

  async #next(): Promise<void> {
    const batch = this.#waiting;
    if (batch.size === 0) return;
    this.#waiting = new Map();
    this.#reading = true;
    try {
      const versions = await this.#readAll([...batch.keys()]);
      for (const [schema, waiters] of batch) {
        for (const waiter of waiters) waiter.resolve(versions.get(schema) ?? 0);
      }
    } catch (error) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
    } finally {
      this.#reading = false;
      void this.#next();
    }
  }

  async #readAll(schemas: string[]): Promise<Map<string, number>> {
    const client = await this.pool.connect();
    try {
      await pointAt(client, 'public');
      return await readVersions(client, schemas);
    } finally {
      client.release();
    }
  }
}

async function readVersions(client: ClientBase, schemas: string[]): Promise<Map<string, number>> {
  const text = schemas
    .map(
      (schema, i) =>
        `SELECT ${i}::int AS i, version FROM ${quoted(schema)}.catalogue_version WHERE id = 1`,
    )
    .join(' UNION ALL ');
  const { rows } = await client.query<{ i: number; version: string | number }>(text);
  return new Map(rows.map((row) => [schemas[row.i]!, Number(row.version)]));
}

const byServer = new WeakMap<Pool, ServerVersionReads>();

/** A campus's catalogue version, read (with every other campus of its server waiting) after the call. */
export function readCampusVersion(pool: Pool, schema: string): Promise<number> {
  let reads = byServer.get(pool);
  if (!reads) {
    reads = new ServerVersionReads(pool);
    byServer.set(pool, reads);
  }
  return reads.read(schema);
}
