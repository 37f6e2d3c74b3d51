/**
 * The book lookup cache's hit rate over a seeded catalogue: every listing of the catalogue that
 * names an ISBN is looked up once, in the order the listings were created (a seller scanning the
 * barcode before listing), through the server's own lookup (`createBookLookup`, the `books` table)
 * and its Open Library provider pointed at a local FAKE of the provider (the internet is never
 * asked). Prints the lookups, the distinct books, the provider requests and the hit rate.
 *
 *   node --import tsx bench/lookup-cache.ts [--size 10000] [--seed 42] [--database-url postgres://…]
 *
 * Without --database-url the embedded database runs in a temporary folder; with it, the database
 * must be empty (it is migrated first, as the server would).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../packages/server/src/db/database';
import { openLibraryProvider } from '../packages/server/src/features/books/open-library';
import { createBookLookup } from '../packages/server/src/features/books/books.service';
import {
  FAKE_ISBNS,
  startFakeBookProviders,
} from '../packages/server/test/support/fake-book-providers';
import { generateListings } from './generate/catalogue';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '42' },
    'database-url': { type: 'string' },
  },
});
const size = Number(values.size);
const seed = Number(values.seed);
const databaseUrl = values['database-url'];

const dataDir = databaseUrl ? null : await mkdtemp(path.join(os.tmpdir(), 'cb-lookup-'));
const database = databaseUrl
  ? await openDatabase({ engine: 'postgres', url: databaseUrl })
  : await openDatabase({ engine: 'pglite', dataDir: path.join(dataDir!, 'db') });
const fake = await startFakeBookProviders();
try {
  const lookup = createBookLookup({
    db: database.db,
    providers: [openLibraryProvider(fake.url, fake.url)],
  });
  // The catalogue's listings in the order they were created. The fake's own test ISBNs (a 429, a
  // malformed answer, a provider that never answers…) happen to be catalogue books 1–9: left out.
  const special = new Set<string>(Object.values(FAKE_ISBNS));
  const sellers = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
  const isbns = [...generateListings(seed, size, sellers, () => '/api/images/x/640.webp')]
    .filter((l) => l.isbn && !special.has(l.isbn))
    .sort((a, b) => a.createdAt!.getTime() - b.createdAt!.getTime())
    .map((l) => l.isbn!);

  const started = performance.now();
  for (const isbn of isbns) await lookup.lookup(isbn);
  const seconds = (performance.now() - started) / 1000;

  const providerRequests = fake.requests.get('/api/books') ?? 0;
  const distinct = new Set(isbns).size;
  const hitRate = isbns.length === 0 ? 0 : 1 - providerRequests / isbns.length;
  console.log(
    [
      `lookup cache over the seeded catalogue (${size.toLocaleString('en-US')} listings, seed ${seed}, ${database.engine}; provider: a local FAKE of Open Library)`,
      `  listings naming an ISBN (lookups): ${isbns.length.toLocaleString('en-US')}`,
      `  distinct books:                    ${distinct.toLocaleString('en-US')}`,
      `  provider requests:                 ${providerRequests.toLocaleString('en-US')} (${(providerRequests / Math.max(1, distinct)).toFixed(2)} per book)`,
      `  cache hit rate:                    ${(hitRate * 100).toFixed(1)} %`,
      `  time:                              ${seconds.toFixed(1)} s (${((seconds * 1000) / Math.max(1, isbns.length)).toFixed(2)} ms per lookup)`,
    ].join('\n'),
  );
} finally {
  await fake.close();
  await database.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
