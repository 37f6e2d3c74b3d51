import type { ClientBase, Pool } from 'pg';
import { pointAt } from './campus-pool';
import { quoted } from './campus-schema';

/** PostgreSQL's `undefined_function`. */
const UNDEFINED_FUNCTION = '42883';

/**
 * The catalogue versions of the campuses of one PostgreSQL server, read together (decision 024).
 *
 * Since 2026-12-07 the caches read a version only while their server's LISTEN is down or not yet
 * up: otherwise its fence says every change before a request was heard (db/notifications.ts,
 * features/search/listing-caches.ts). What follows is how those reads stay one per round trip.
 *
 * A cached answer is served only after a read of its campus's catalogue version that started after
 * the request arrived (features/search/listing-caches.ts, decision 006). One campus's requests share
 * such reads (one per round trip), but a hundred campuses' requests, arriving mixed, would each
 * need a read of their own on a connection pointed at their campus: a round trip to point it and
 * one to read, per request. Here every campus of a server that needs a read while one is in flight
 * waits for the next, and that next read asks every waiting campus's version in one statement, on
 * a connection of the login role (which may read each campus's `catalogue_version`, granted when
 * the campus is migrated: campus-catalogue.ts): one statement per round trip per server, whatever
 * the number of campuses. The callers of one campus share one promise of the next read, so a
 * request costs one await whatever the mix of campuses (until 2026-12, each campus's callers also
 * shared a read chain of their own on top of this one: a dozen promises a request when most requests
 * were their campus's first of a round trip, as with a hundred campuses' hosts mixed). A read that
 * fails (a campus dropped or moved meanwhile, a grant missing) fails every waiter of its batch, and
 * each campus reads its own version alone instead (listing-caches.ts).
 */

/** The next read of a server's campus versions: the campuses waiting for it, and their shared answers. */
class Batch {
  /** Each waiting campus's version, by schema: one promise per campus, shared by its callers. */
  readonly #versionOf = new Map<string, Promise<number>>();
  readonly #read: Promise<Map<string, number>>;
  #start!: () => void;

  /** `done` runs when the read is back, before any caller hears of it. */
  constructor(readAll: (schemas: string[]) => Promise<Map<string, number>>, done: () => void) {
    this.#read = new Promise<void>((resolve) => (this.#start = resolve))
      .then(() => readAll([...this.#versionOf.keys()]))
      .finally(done);
  }

  versionOf(schema: string): Promise<number> {
    let version = this.#versionOf.get(schema);
    if (!version) {
      version = this.#read.then((versions) => versions.get(schema) ?? 0);
      this.#versionOf.set(schema, version);
    }
    return version;
  }

  /** Sends the read (the campuses that join from now on wait for the next). */
  start(): void {
    this.#start();
  }
}

class ServerVersionReads {
  /** The read that callers join: it starts once the one in flight is back. */
  #next: Batch | null = null;
  #reading = false;

  constructor(private readonly pool: Pool) {}

  read(schema: string): Promise<number> {
    try {
      quoted(schema); // a plain identifier, or a refusal here rather than a failed batch
    } catch (error) {
      return Promise.reject(error);
    }
    this.#next ??= new Batch(
      (schemas) => this.#readAll(schemas),
      () => {
        this.#reading = false;
        this.#send();
      },
    );
    const version = this.#next.versionOf(schema);
    if (!this.#reading) this.#send();
    return version;
  }

  #send(): void {
    const batch = this.#next;
    if (!batch) return;
    this.#next = null;
    this.#reading = true;
    batch.start();
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

/**
 * Each campus's version in one statement: a call of its `catalogue_version_now()` (migration 0034),
 * whose statement each connection plans once. A campus's schema not yet migrated to it (another
 * app server's older code registered it) is read from its table instead, as before 0034: every
 * table's SELECT planned again.
 */
async function readVersions(client: ClientBase, schemas: string[]): Promise<Map<string, number>> {
  const calls = schemas.map((schema, i) => `(${i}, ${quoted(schema)}.catalogue_version_now())`);
  const { rows } = await client
    .query<{ i: number; version: string | number }>(
      `SELECT i, version FROM (VALUES ${calls.join(', ')}) AS v (i, version)`,
    )
    .catch((error: unknown) => {
      if ((error as { code?: string }).code !== UNDEFINED_FUNCTION) throw error;
      return client.query<{ i: number; version: string | number }>(
        schemas
          .map(
            (schema, i) =>
              `SELECT ${i}::int AS i, version FROM ${quoted(schema)}.catalogue_version WHERE id = 1`,
          )
          .join(' UNION ALL '),
      );
    });
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
