import path from 'node:path';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { openDatabase } from '../../src/db/database';
import { generateCatalogue } from './catalogue';

/**
 * Fills an EMPTY embedded installation with a generated catalogue, for measuring the ops commands
 * (docs/operations.md): node --import tsx packages/server/test/support/generate-catalogue.script.ts
 *   <DATA_DIR> [listings=1000] [users=100] [images=300]
 */
const [dataDir, listings = '1000', users = '100', images = '300'] = process.argv.slice(2);
if (!dataDir)
  throw new Error('usage: generate-catalogue.script.ts <DATA_DIR> [listings] [users] [images]');
const started = Date.now();
const config = loadConfig({
  NODE_ENV: 'test',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  RATE_LIMIT_LISTINGS_PER_ACCOUNT: '1000000',
});
const database = await openDatabase({ engine: 'pglite', dataDir: path.join(dataDir, 'db') });
const app = await buildApp({ config, database });
await app.ready();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
try {
  const catalogue = await generateCatalogue(
    { app, database, config, dataDir, close: async () => {} },
    {
      users: Number(users),
      listings: Number(listings),
      images: Number(images),
      log: (line) => console.log(`${line} (${elapsed()})`),
    },
  );
  console.log(
    `generated ${catalogue.users.length} users, ${catalogue.listingIds.length} listings, ` +
      `${catalogue.imageUrls.length} images in ${elapsed()}`,
  );
} finally {
  await app.close();
  await database.close();
}
