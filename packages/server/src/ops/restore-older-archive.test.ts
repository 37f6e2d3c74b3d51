import { randomUUID } from 'node:crypto';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { create, extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../../test/helpers';
import {
  alertsOf,
  databaseAtMigration,
  insertOldUser,
  insertPausedAndLiveCopies,
} from '../../test/support/older-schema';
import { createInstallation, type Installation } from '../../test/support/ops-installations';
import { openDatabase } from '../db/database';
import { knownMigrations } from '../db/migrator';
import { rowsOf } from '../db/rows';
import { createLocalStorage } from '../lib/storage/local-storage';
import { imageFileKeys, writeBackup } from './backup';
import { sha256, type Manifest } from './manifest';
import { noProgress } from './progress';
import { runRestore } from './restore-command';
import { RestoreFailedError } from './restore-failure';
import { embeddedDbDir, localUploadsDir, storageFor } from './targets';

const log = () => {};

/**
 * The previous release's backup (its schema ended at migration 0017, before alerts had one copy per
 * student and filters and before listing text lost its invisible characters), restored by this one.
 */
describe(`restoring an older release's backup (${TEST_ENGINE})`, () => {
  const work = mkdtempSync(path.join(tmpdir(), 'cb-older-archive-'));
  const archive = path.join(work, 'previous-release.tar');
  let userId: string;
  let copies: { paused: string; live: string };
  let listingId: string;
  let imageId: string;

  beforeAll(async () => {
    const older = await databaseAtMigration('0017');
    const store = createLocalStorage(path.join(work, 'uploads'));
    try {
      const database = await older.open({ migrate: false });
      try {
        userId = await insertOldUser(database, 'Paula');
        copies = await insertPausedAndLiveCopies(database, userId);
        [{ id: listingId }] = (await rowsOf<{ id: string }>(
          database.db,
          sql`INSERT INTO listings (user_id, name, course_number, condition, regular_price)
              VALUES (${userId}, ${'Cal\u200Bculus'}, '101', 'Good', 20) RETURNING id`,
        )) as [{ id: string }];
        imageId = randomUUID();
        await database.db.execute(
          sql`INSERT INTO images (id, owner_id, status, bytes) VALUES (${imageId}, ${userId}, 'ready', 4)`,
        );
        for (const key of imageFileKeys(imageId)) await store.put(key, Buffer.from(`webp ${key}`));
        const manifest = await writeBackup({
          database,
          storage: store,
          output: createWriteStream(archive),
        });
        expect(manifest.schema.migrations).toBe(18); // 0000 … 0017
      } finally {
        await database.close();
      }
    } finally {
      await store.close();
      await older.drop();
    }
  }, 180_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it(
    'brings it to this schema through the same migrations as an upgrade: the live alert stays, invisible characters go',
    { timeout: 120_000 },
    async () => {
      const target = await createInstallation(TEST_ENGINE);
      try {
        await runRestore({ config: target.config, file: archive, progress: noProgress, log });
        const database = await target.openDatabase();
        try {
          expect(await alertsOf(database, userId)).toEqual([
            { id: copies.live, paused: false, digest: true },
          ]);
          const [listing] = await rowsOf<{ name: string }>(
            database.db,
            sql`SELECT name FROM listings WHERE id = ${listingId}`,
          );
          expect(listing?.name).toBe('Calculus');
          const [applied] = await rowsOf<{ n: number }>(
            database.db,
            sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`,
          );
          expect(applied?.n).toBe(knownMigrations().length);
        } finally {
          await database.close();
        }
        const store = storageFor(target.config);
        expect((await store.list('')).map((o) => o.key)).toEqual(imageFileKeys(imageId).sort());
        await store.close();
      } finally {
        await target.close();
      }
    },
  );

  it(
    'a row the database refuses is named with its rule, and nothing is left behind: a second attempt works',
    { timeout: 180_000 },
    async () => {
      const strayAlert = randomUUID();
      const corrupted = await rewriteTable(archive, 'alerts', (rows) => [
        ...rows,
        JSON.stringify({ ...JSON.parse(rows[0]!), id: strayAlert, user_id: randomUUID() }),
      ]);
      const target = await createInstallation(TEST_ENGINE);
      try {
        const restore = runRestore({
          config: target.config,
          file: corrupted,
          progress: noProgress,
          log,
        });
        await expect(restore).rejects.toBeInstanceOf(RestoreFailedError);
        await expect(restore).rejects.toThrow(
          new RegExp(
            `^row alerts id=${strayAlert}: the foreign key alerts_user_id_\\w+ \\(Key \\(user_id\\)=\\([0-9a-f-]{36}\\) is not present in table "users"\\.\\)\\. Nothing was restored`,
          ),
        );
        await expectUntouched(target);

        await runRestore({ config: target.config, file: archive, progress: noProgress, log });
        const database = await target.openDatabase();
        expect(await alertsOf(database, userId)).toEqual([
          { id: copies.live, paused: false, digest: true },
        ]);
        await database.close();
      } finally {
        await target.close();
      }
    },
  );

  /** A copy of the archive whose table's rows were changed, with its manifest made to match. */
  async function rewriteTable(file: string, table: string, change: (rows: string[]) => string[]) {
    const dir = mkdtempSync(path.join(work, 'rewrite-'));
    await extract({ file, cwd: dir });
    const entry = path.join(dir, 'db', `${table}.jsonl`);
    const rows = change(readFileSync(entry, 'utf8').split('\n').filter(Boolean));
    const text = `${rows.join('\n')}\n`;
    writeFileSync(entry, text);
    const manifestFile = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
    const listed = manifest.tables.find((t) => t.name === table)!;
    listed.rows = rows.length;
    listed.sha256 = sha256(text);
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const out = path.join(work, `${table}-changed.tar`);
    await create({ file: out, cwd: dir, portable: true }, ['files', 'db', 'manifest.json']);
    return out;
  }
});

/** No file in the store, and no schema, no row (nor, embedded, even the database's folder). */
async function expectUntouched(target: Installation) {
  const store = createLocalStorage(localUploadsDir(target.dataDir));
  expect(await store.list('')).toEqual([]);
  if (target.engine === 'pglite') {
    expect(existsSync(embeddedDbDir(target.dataDir))).toBe(false);
    return;
  }
  const database = await openDatabase({
    engine: 'postgres',
    url: target.env.DATABASE_URL!,
    poolSize: 1,
    migrate: false,
  });
  try {
    const tables = await rowsOf<{ name: string }>(
      database.db,
      sql`SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
          WHERE table_schema IN ('public', 'drizzle')`,
    );
    expect(tables).toEqual([]);
  } finally {
    await database.close();
  }
}
