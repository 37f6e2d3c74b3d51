import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  currentCampusWork,
  runInCampus,
  runOutsideCampus,
  type CampusWork,
} from '../campuses/campus-context';
import { rowsOf, type Executor } from '../db/rows';

declare module 'fastify' {
  interface FastifyInstance {
    /** Searches that found nothing, counted per normalised term (the operator statistics). */
    searchMisses: SearchMisses;
  }
}

export interface SearchMisses {
  /** Counts one search for `term` that found nothing; costs a map update, no query. */
  record(term: string): void;
  /** Writes the counts gathered so far (every minute, at shutdown; tests call it). */
  flush(): Promise<void>;
}

/** Terms one server holds between two writes; more are dropped until the next write. */
export const MAX_PENDING_TERMS = 500;
const FLUSH_EVERY_MS = 60_000;
const TERM_MAX_LENGTH = 100;

/** How a term is counted: lower case, one space between words, at most 100 characters. */
export function normaliseSearchTerm(term: string): string {
  return term.toLowerCase().replace(/\s+/g, ' ').trim().slice(0, TERM_MAX_LENGTH).trim();
}

/**
 * Zero-result search terms, aggregated in memory and written once a minute as one upsert per
 * batch into `search_misses` (day, term, count): no user, no address, no time finer than the day.
 * The search only calls `record` when its total is 0, so the common path costs one comparison.
 */
export default fp(
  async function searchMissesPlugin(app: FastifyInstance) {
    /**
     * Counts by campus (decision 024: the campus of the search's work; undefined outside any), each
     * written into its own campus's table; MAX_PENDING_TERMS bounds them all together.
     */
    let pending = new Map<CampusWork | undefined, Map<string, number>>();
    let pendingTerms = 0;

    function record(term: string): void {
      const normalised = normaliseSearchTerm(term);
      if (!normalised) return;
      const campus = currentCampusWork();
      let counts = pending.get(campus);
      const count = counts?.get(normalised);
      if (counts && count !== undefined) counts.set(normalised, count + 1);
      else if (pendingTerms < MAX_PENDING_TERMS) {
        if (!counts) pending.set(campus, (counts = new Map()));
        counts.set(normalised, 1);
        pendingTerms += 1;
      }
    }

    async function write(batch: Map<string, number>): Promise<void> {
      const day = app.jobs.now().toISOString().slice(0, 10);
      const rows = [...batch].map(([term, count]) => sql`(${day}::date, ${term}, ${count})`);
      await app.database.db.execute(sql`
        INSERT INTO search_misses (day, term, count) VALUES ${sql.join(rows, sql`, `)}
        ON CONFLICT (day, term) DO UPDATE SET count = search_misses.count + EXCLUDED.count`);
    }

    async function flush(): Promise<void> {
      if (pendingTerms === 0) return;
      const batches = pending;
      pending = new Map();
      pendingTerms = 0;
      const failures: unknown[] = [];
      for (const [campus, batch] of batches) {
        // The campus's own table, whichever campus's request or timer flushes.
        await (
          campus ? runInCampus(campus, () => write(batch)) : runOutsideCampus(() => write(batch))
        ).catch((error: unknown) => failures.push(error));
      }
      if (failures.length > 0) throw failures[0];
    }

    const timer = setInterval(() => {
      flush().catch((error: unknown) =>
        app.log.warn({ err: error }, 'could not record the searches that found nothing'),
      );
    }, FLUSH_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await flush().catch(() => {});
    });
    app.decorate('searchMisses', { record, flush } satisfies SearchMisses);
  },
  { name: 'search-misses', dependencies: ['database', 'jobs'] },
);

/** Deletes the day counts of days before `day` (`YYYY-MM-DD`, the retention policy); how many. */
export async function deleteSearchMissesBefore(db: Executor, day: string): Promise<number> {
  const rows = await rowsOf(
    db,
    sql`DELETE FROM search_misses WHERE day < ${day}::date RETURNING day`,
  );
  return rows.length;
}
