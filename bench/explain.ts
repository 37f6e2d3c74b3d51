/**
 * The database side of the search scenarios, without HTTP: EXPLAIN ANALYZE of the server's own search
 * query for each scenario, and its mean time over repeated runs on one connection.
 *   node --import tsx bench/explain.ts --engine postgres --size 100000 [--runs 30] [--plans]
 * or on a catalogue already generated (bench/generate/cli.ts), which is migrated first:
 *   node --import tsx bench/explain.ts --database-url postgres://…/db | --data-dir DIR
 * With --shapes, instead of the bench's scenarios: the full plan of each query shape in
 * docs/search-query-plans.md (the search's main shapes, a seller's listings, by id), as Markdown.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { eq, isNotNull, sql } from 'drizzle-orm';
import { listingSearchSchema, type ListingSearchQuery } from '@campus-books/common/listing.schemas';
import { openDatabase, type Db } from '../packages/server/src/db/database';
import { listings } from '../packages/server/src/db/schema';
import { findListingsQuery } from '../packages/server/src/features/listings/listings.queries';
import { searchListings } from '../packages/server/src/features/search/search-listings';
import { searchStatements } from '../packages/server/src/features/search/statements';
import { defaultCampus } from './generate/campus';
import type { SeedResult } from './generate/seed';
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
    shapes: { type: 'boolean', default: false },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    'database-url': { type: 'string' },
    'data-dir': { type: 'string' },
  },
});
const existing = values['database-url'] ?? values['data-dir'];
const engine: Engine = values['database-url']
  ? 'postgres'
  : values['data-dir']
    ? 'pglite'
    : (values.engine as Engine);
const prepared = existing
  ? {
      // Search scenarios read nothing of the seed's result.
      seed: {} as SeedResult,
      dispose: async () => {},
    }
  : await prepareDatabase(engine, Number(values.size), {
      seed: Number(values.seed),
      postgresUrl: values['postgres-url'],
    });
const database =
  engine === 'postgres'
    ? await openDatabase({
        engine,
        url: values['database-url'] ?? ('env' in prepared ? prepared.env.DATABASE_URL! : ''),
      })
    : await openDatabase({
        engine,
        dataDir: path.join(
          values['data-dir'] ?? ('dataDir' in prepared ? prepared.dataDir : ''),
          'db',
        ),
      });

/** Inlines the parameters: EXPLAIN cannot take bound ones through drizzle's execute. */
function literal(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(',')}]::text[]`;
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** The query shapes of docs/search-query-plans.md. */
const SHAPES: [string, ListingSearchQuery][] = [
  ['Default search (home, /search with no filter)', {}],
  ['Name search: searchTerm=calculus', { searchTerm: 'calculus' }],
  ['Name search with a typo: searchTerm=calclus', { searchTerm: 'calclus' }],
  ['Two words, each misspelled: searchTerm=orgnic chemstry', { searchTerm: 'orgnic chemstry' }],
  [
    'Name search, explicit sort: searchTerm=calculus&sort=createdAt',
    { searchTerm: 'calculus', sort: 'createdAt' },
  ],
  [
    'condition + school + major, price sort',
    {
      condition: 'good',
      schools: defaultCampus.schoolKeys.slice(0, 1),
      major: 'Computer Science',
      sort: 'regularPrice',
      order: 'asc',
    },
  ],
  ['Price sort, no filter: sort=regularPrice&order=desc', { sort: 'regularPrice', order: 'desc' }],
  ['Course number: courseNumber=211', { courseNumber: '211' }],
  ['Deep page: startIndex=900', { startIndex: 900 }],
];

async function explainShape(
  db: Db,
  title: string,
  query: { toSQL(): { sql: string; params: unknown[] } },
) {
  const built = query.toSQL();
  const text = built.sql.replace(/\$(\d+)/g, (_m, n: string) =>
    literal(built.params[Number(n) - 1]),
  );
  const plan = (await db.execute(sql.raw(`EXPLAIN (ANALYZE, BUFFERS) ${text}`))) as unknown as {
    rows: Record<string, string>[];
  };
  const lines = plan.rows.map((r) => Object.values(r)[0]!);
  console.log(`\n### ${title}\n\n\`\`\`\n${lines.join('\n')}\n\`\`\``);
}

async function explainShapes(db: Db) {
  for (const [title, query] of SHAPES) {
    const statements = await searchStatements(db, query);
    for (const [i, statement] of statements.entries()) {
      const part = statements.length > 1 ? (i === 0 ? ' (best matches)' : ' (other matches)') : '';
      await explainShape(db, title + part, statement);
    }
  }
  const [sample] = await db
    .select({ id: listings.id, userId: listings.userId })
    .from(listings)
    .where(isNotNull(listings.userId))
    .limit(1);
  if (!sample?.userId) return;
  await explainShape(
    db,
    "A seller's own listings: GET /api/user/listings/{id}",
    findListingsQuery(db, sample.userId),
  );
  await explainShape(
    db,
    'By id: GET /api/listing/get/{id}',
    db.select().from(listings).where(eq(listings.id, sample.id)),
  );
}

try {
  const [{ n }] = (
    (await database.db.execute(sql`SELECT count(*)::int AS n FROM listings`)) as unknown as {
      rows: { n: number }[];
    }
  ).rows as [{ n: number }];
  console.log(`${engine}, ${n.toLocaleString('en-US')} listings`);
  if (values.shapes) await explainShapes(database.db);
  for (const scenario of values.shapes ? [] : SCENARIOS.filter((s) => s.group === 'search')) {
    let load: ReturnType<(typeof scenario)['load']>;
    try {
      load = scenario.load({ seed: prepared.seed, mainScript: null, mixed: null, cookie: null });
    } catch {
      // A scenario rotating through the catalogue's ISBNs needs the seed of a run that made it.
      continue;
    }
    const setup = load?.requests?.[0]?.setupRequest;
    const path = load?.path ?? (typeof setup === 'function' ? setup({}, {}).path : undefined);
    if (!path?.startsWith('/api/listing/get')) continue;
    const url = new URL(path, 'http://x');
    const query = listingSearchSchema.parse(Object.fromEntries(url.searchParams));
    const lines: string[] = [];
    for (const statement of await searchStatements(database.db, query)) {
      const built = statement.toSQL();
      const text = built.sql.replace(/\$(\d+)/g, (_m, n: string) =>
        literal(built.params[Number(n) - 1]),
      );
      const plan = (await database.db.execute(
        sql.raw(`EXPLAIN (ANALYZE, BUFFERS) ${text}`),
      )) as unknown as {
        rows: Record<string, string>[];
      };
      lines.push(...plan.rows.map((r) => Object.values(r)[0]!));
    }
    const started = performance.now();
    for (let i = 0; i < Number(values.runs); i++) await searchListings(database, query);
    const meanMs = (performance.now() - started) / Number(values.runs);
    const execution = lines.filter((l) => l.startsWith('Execution Time')).join(' + ');
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
