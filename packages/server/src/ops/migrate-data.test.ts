import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_VARIANTS } from '@campus-books/common/images';
import { buildApp } from '../app';
import { loadConfig } from '../config/config';
import { openDatabase } from '../db/database';
import { startTestS3Server, type TestS3Server } from '../../test/support/s3-test-server';
import { createPostgresDatabase, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { generateCatalogue, type Catalogue } from '../../test/support/catalogue';
import { sha256 } from './manifest';
import { runMigrateData } from './migrate-data-command';
import {
  createInstallation,
  startApp,
  type Installation,
} from '../../test/support/ops-installations';
import { noProgress } from './progress';

/** The catalogue's 6 images, each stored as every variant. */
const FILES = 6 * IMAGE_VARIANTS.length;

const SEARCHES = [
  '/api/listing/get',
  '/api/listing/get?startIndex=9',
  '/api/listing/get?searchTerm=calculus&limit=50',
  '/api/listing/get?searchTerm=orgnic%20chemstry',
  '/api/listing/get?sort=regularPrice&order=asc&limit=50',
  '/api/listing/get?condition=mint&type=all&status=active_or_none&limit=50',
  '/api/listing/get?courseNumber=150&Bschool=true',
];

/** The answers a visitor gets: searches, every listing page, every image's bytes. */
async function answers(t: TestApp, catalogue: Catalogue) {
  const seen: Record<string, unknown> = {};
  for (const url of SEARCHES) {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    seen[url] = res.json();
  }
  for (const id of catalogue.listingIds) {
    seen[id] = (await t.app.inject({ method: 'GET', url: `/api/listing/get/${id}` })).json();
  }
  for (const url of catalogue.imageUrls) {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    seen[url] = sha256(res.rawPayload);
  }
  return seen;
}

// The source is always the embedded database; the target needs the PostgreSQL server.
const onPostgres = describe.runIf(TEST_ENGINE === 'postgres');

onPostgres('migrate-data: embedded installation to PostgreSQL and S3', () => {
  let s3: TestS3Server;
  let source: Installation;
  let catalogue: Catalogue;
  let before: Record<string, unknown>;

  beforeAll(async () => {
    s3 = await startTestS3Server();
    source = await createInstallation('pglite');
    const app = await startApp(source);
    catalogue = await generateCatalogue(app, { users: 10, listings: 200, images: 6 });
    before = await answers(app, catalogue);
    await app.close(); // migration copies a stopped installation
  }, 240_000);
  afterAll(async () => {
    await source?.close();
    await s3?.close();
  });

  it('copies everything, verifies it, and the server on PostgreSQL + S3 answers the same', async () => {
    const target = await createPostgresDatabase(false);
    try {
      const lines: string[] = [];
      const summary = await runMigrateData({
        config: loadConfig({ ...source.env, ...s3.env }),
        to: target.url,
        toS3: true,
        progress: noProgress,
        log: (line) => lines.push(line),
      });
      expect(summary).toMatch(
        new RegExp(
          `^migrate-data: 10 users, 200 listings \\(160 active, 40 sold\\), 6 images, ${FILES} files`,
        ),
      );
      expect(lines.join('\n')).toMatch(
        new RegExp(
          `verified: rows .*users 10/10, .*listings 200/200.*files ${FILES}/${FILES} sha256 match`,
        ),
      );

      const config = loadConfig({ ...source.env, ...s3.env, DATABASE_URL: target.url });
      const database = await openDatabase({ engine: 'postgres', url: target.url, poolSize: 4 });
      const app = await buildApp({ config, database });
      try {
        expect(app.storage.kind).toBe('s3');
        const migrated = { app, database, config, dataDir: source.dataDir, close: async () => {} };
        expect(await answers(migrated, catalogue)).toEqual(before);
        const user = catalogue.users[3]!;
        const signIn = await app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          payload: { email: user.email, password: user.password },
        });
        expect(signIn.statusCode).toBe(200);
      } finally {
        await app.close();
        await database.close();
      }

      // Running it again would merge into the copy: refused.
      await expect(
        runMigrateData({
          config: loadConfig({ ...source.env, ...s3.env }),
          to: target.url,
          toS3: true,
          progress: noProgress,
          log: () => {},
        }),
      ).rejects.toThrow(/target database already holds data/);
    } finally {
      await target.drop();
    }
  }, 240_000);

  it('keeps the files in DATA_DIR/uploads without --to-s3', async () => {
    const target = await createPostgresDatabase(false);
    try {
      const summary = await runMigrateData({
        config: source.config,
        to: target.url,
        toS3: false,
        progress: noProgress,
        log: () => {},
      });
      expect(summary).toMatch(/^migrate-data: 10 users, 200 listings/);
      const config = loadConfig({ ...source.env, DATABASE_URL: target.url });
      const database = await openDatabase({ engine: 'postgres', url: target.url, poolSize: 4 });
      const app = await buildApp({ config, database });
      try {
        expect(app.storage.kind).toBe('local');
        const migrated = { app, database, config, dataDir: source.dataDir, close: async () => {} };
        expect(await answers(migrated, catalogue)).toEqual(before);
      } finally {
        await app.close();
        await database.close();
      }
    } finally {
      await target.drop();
    }
  }, 240_000);
});
