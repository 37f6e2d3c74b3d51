/**
 * The database side of the search scenarios, without HTTP: EXPLAIN ANALYZE of the server's own search
 * query for each scenario, and its mean time over repeated runs on one connection.
 *   node --import tsx bench/explain.ts --engine postgres --size 100000 [--runs 30] [--plans]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { listingSearchSchema } from '@campus-books/common/listing.schemas';
import { openDatabase } from '../packages/server/src/db/database';
import { searchListingsQuery } from '../packages/server/src/features/listings/listings.search';
import { prepareDatabase } from './lib/databases';
import type { Engine } from './lib/options';
import { SCENARIOS } from './lib/scenarios';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    size: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '42' },
    runs: { type: 'string', default: '30' },
    plans: { type: 'boolean', default: false },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const engine = values.engine as Engine;
const prepared = await prepareDatabase(engine, Number(values.size), {
  seed: Number(values.seed),
  postgresUrl: values['postgres-url'],
});
const database =
  engine === 'postgres'
    ? await openDatabase({ engine, url: prepared.env.DATABASE_URL! })
    : await openDatabase({ engine, dataDir: path.join(prepared.dataDir, 'db') });

/** Inlines the parameters: EXPLAIN cannot take bound ones through drizzle's execute. */
function literal(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(',')}]::text[]`;
  return `'${String(value).replace(/'/g, "''")}'`;
}

try {
  console.log(`${engine}, ${Number(values.size).toLocaleString('en-US')} listings`);
  for (const scenario of SCENARIOS.filter((s) => s.group === 'search')) {
    const load = scenario.load({ seed: prepared.seed, mainScript: null, mixed: null });
    const url = new URL(load!.path!, 'http://x');
    const query = listingSearchSchema.parse(Object.fromEntries(url.searchParams));
    const built = searchListingsQuery(database.db, query).toSQL();
    const text = built.sql.replace(/\$(\d+)/g, (_m, n: string) =>
      literal(built.params[Number(n) - 1]),
    );
    const plan = (await database.db.execute(
      sql.raw(`EXPLAIN (ANALYZE, BUFFERS) ${text}`),
    )) as unknown as {
      rows: Record<string, string>[];
    };
    const lines = plan.rows.map((r) => Object.values(r)[0]!);
    const started = performance.now();
    for (let i = 0; i < Number(values.runs); i++) await searchListingsQuery(database.db, query);
    const meanMs = (performance.now() - started) / Number(values.runs);
    const execution = lines.find((l) => l.startsWith('Execution Time')) ?? '';
    console.log(
      `\n## ${scenario.name}: mean ${meanMs.toFixed(2)} ms through drizzle; ${execution}`,
    );
    console.log(
      values.plans
        ? lines.join('\n')
        : lines
            .filter((l) => /Scan|Sort|Limit/.test(l))
            .slice(0, 6)
            .join('\n'),
    );
  }
} finally {
  await database.close();
  await prepared.dispose();
}
