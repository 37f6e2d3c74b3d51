import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';

/**
 * The types drizzle-orm's PGlite driver reads as PostgreSQL's own text (drizzle-orm/pglite/session.js:
 * dates, timestamps and intervals, and arrays of those and of numerics); its columns parse them.
 */
const TEXT_KEPT_TYPES = {
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
  date: 1082,
  'numeric[]': 1231,
  'timestamp[]': 1115,
  'timestamptz[]': 1185,
  'interval[]': 1187,
  'date[]': 1182,
} as const;

const asText = (value: string) => value;

/** A query's options without its own parsers (the client's table has them). */
function withoutParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers) return options;
  const { parsers: _parsers, ...rest } = options;
  return rest;
}

/**
 * The client drizzle-orm is given on the embedded engine. The driver sends the parsers above with
 * every query, and PGlite merges a query's parsers into its table of ~320 types each time: ~0.1 ms a
 * query, as much as a `SELECT 1` itself (docs/performance.md, "Start-up and the embedded engine's
 * queries"). They are written into the client's table once here instead, and every query (in a
 * transaction too) goes without its own; the answers are the same (db/pglite-parsers.test.ts).
 * Call it once the client is ready: PGlite fills its array types' parsers as it starts.
 */
export function withParsersKept(client: PGlite): PGlite {
  for (const oid of Object.values(TEXT_KEPT_TYPES)) client.parsers[oid] = asText;
  const keep = <T extends PGlite | Transaction>(target: T): T =>
    new Proxy(target, {
      get(of, property) {
        if (property === 'query') {
          return (query: string, params?: unknown[], options?: QueryOptions) =>
            of.query(query, params, withoutParsers(options));
        }
        if (property === 'transaction' && 'waitReady' in of) {
          return <R>(callback: (tx: Transaction) => Promise<R>) =>
            of.transaction((tx) => callback(keep(tx)));
        }
        // PGlite's methods use private fields: they run on the client itself, not on this proxy.
        const value: unknown = Reflect.get(of, property, of);
        return typeof value === 'function'
          ? (value as (...a: unknown[]) => unknown).bind(of)
          : value;
      },
    });
  return keep(client);
}
