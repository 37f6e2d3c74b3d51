/**
 * Generates a catalogue into a database on its own:
 *   node --import tsx bench/generate/cli.ts --size 10000 --seed 42 --data-dir /tmp/cb-data
 *   node --import tsx bench/generate/cli.ts --size 10000 --database-url postgres://…/scratch
 * The database is migrated first (as the server would); it should be empty.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../packages/server/src/db/database';
import { seedCatalogue } from './seed';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '42' },
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
    'no-analyze': { type: 'boolean', default: false },
  },
});
const databaseUrl = values['database-url'];
const dataDir = values['data-dir'];
if (!databaseUrl && !dataDir) throw new Error('Give --data-dir (PGlite) or --database-url');
const database = databaseUrl
  ? await openDatabase({ engine: 'postgres', url: databaseUrl })
  : await openDatabase({ engine: 'pglite', dataDir: path.join(path.resolve(dataDir!), 'db') });
try {
  const result = await seedCatalogue(database, {
    size: Number(values.size),
    seed: Number(values.seed),
    analyze: !values['no-analyze'],
    dataDir: dataDir ? path.resolve(dataDir) : undefined,
  });
  console.log(
    `${result.listings} listings, ${result.sellers} users on ${database.engine} in ${result.seconds.toFixed(1)} s`,
  );
} finally {
  await database.close();
}
