import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { routeCaller } from '../../test/api-caller';
import { sessionCookieOf } from '../../test/accounts';
import { TEST_ENGINE, type TestApp } from '../../test/helpers';
import type { Db } from '../db/database';
import { runBackup } from './backup-command';
import { generateCatalogue, type Catalogue } from '../../test/support/catalogue';
import { ArchiveError, RestoreRefusedError, sha256 } from './manifest';
import {
  addUser,
  createInstallation,
  startApp,
  type Installation,
} from '../../test/support/ops-installations';
import { noProgress } from './progress';
import { runRestore } from './restore-command';
import { embeddedDbDir } from './targets';

/** listing_words is not in the archive (derived): the restore must rebuild it the same. */
const TABLES = ['users', 'sessions', 'email_tokens', 'listings', 'images', 'listing_words'];

/** Every row of every table, ordered, as the driver returns them. */
async function allRows(db: Db) {
  const state: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    const result = (await db.execute(sql.raw(`SELECT * FROM ${table} ORDER BY 1`))) as unknown as {
      rows: unknown[];
    };
    state[table] = result.rows;
  }
  return state;
}

/** What a student sees: each listing as the API answers it, and the bytes of every image variant. */
async function visibleState(t: TestApp, catalogue: Catalogue) {
  const listings = [];
  const images: Record<string, string> = {};
  for (const id of catalogue.listingIds) {
    const res = await t.app.inject({ method: 'GET', url: `/api/listing/get/${id}` });
    expect(res.statusCode).toBe(200);
    listings.push(res.json());
  }
  for (const url of catalogue.imageUrls) {
    for (const variant of ['320', '640', '1280', 'full']) {
      const variantUrl = url.replace(/\/[^/]+\.webp$/, `/${variant}.webp`);
      const res = await t.app.inject({ method: 'GET', url: variantUrl });
      expect(res.statusCode).toBe(200);
      images[variantUrl] = sha256(res.rawPayload);
    }
  }
  return { listings, images };
}

const log = () => {};

describe(`backup and restore (${TEST_ENGINE})`, () => {
  const work = mkdtempSync(path.join(tmpdir(), 'cb-backup-test-'));
  const archive = path.join(work, 'campus-books.tar');
  let catalogue: Catalogue;
  let rowsBefore: Record<string, unknown[]>;
  let seenBefore: Awaited<ReturnType<typeof visibleState>>;
  let conversation: { listingId: string; buyer: Catalogue['users'][number] };

  beforeAll(async () => {
    const source = await createInstallation(TEST_ENGINE);
    const app = await startApp(source);
    catalogue = await generateCatalogue(app, { users: 3, listings: 12, images: 4 });
    conversation = await startConversation(app, catalogue);
    rowsBefore = await allRows(app.database.db);
    seenBefore = await visibleState(app, catalogue);
    await app.close(); // the embedded database is backed up directly once the server stopped

    const summary = await runBackup({
      config: source.config,
      file: archive,
      progress: noProgress,
      log,
    });
    expect(summary).toMatch(
      /^backup: 3 users, 12 listings \(10 active, 2 sold\), 4 images, 24 files/,
    );
    await source.close(); // the wipe: DATA_DIR and database are gone
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it(
    'restores the same rows, listings, statuses and image bytes; old passwords sign in',
    { timeout: 60_000 },
    async () => {
      const target = await createInstallation(TEST_ENGINE);
      try {
        const summary = await runRestore({
          config: target.config,
          file: archive,
          progress: noProgress,
          log,
        });
        expect(summary).toMatch(
          /^restore: 3 users, 12 listings \(10 active, 2 sold\), 4 images, 24 files/,
        );

        const restored = await startApp(target);
        try {
          expect(await allRows(restored.database.db)).toEqual(rowsBefore);
          expect(await visibleState(restored, catalogue)).toEqual(seenBefore);
          const user = catalogue.users[0]!;
          const signIn = await restored.app.inject({
            method: 'POST',
            url: '/api/auth/signin',
            payload: { email: user.email, password: user.password },
          });
          expect(signIn.statusCode).toBe(200);
          const wrong = await restored.app.inject({
            method: 'POST',
            url: '/api/auth/signin',
            payload: { email: user.email, password: 'not-the-password' },
          });
          expect(wrong.statusCode).toBe(401);
          // The restored events' id sequence continues after them: a new message is written.
          const buyerIn = await restored.app.inject({
            method: 'POST',
            url: '/api/auth/signin',
            payload: { email: conversation.buyer.email, password: conversation.buyer.password },
          });
          const message = await restored.app.inject({
            method: 'POST',
            url: '/api/conversations',
            headers: { cookie: sessionCookieOf(buyerIn) },
            payload: { listingId: conversation.listingId, text: 'After the restore' },
          });
          expect(message.statusCode).toBe(201);
        } finally {
          await restored.close();
        }

        // A second restore into the now-populated installation is refused and changes nothing.
        await expect(
          runRestore({ config: target.config, file: archive, progress: noProgress, log }),
        ).rejects.toThrow(/already holds 24 files.*Nothing was changed/);
      } finally {
        await target.close();
      }
    },
  );

  it('refuses a store that already holds files, before writing anything', async () => {
    const target = await createInstallation(TEST_ENGINE);
    try {
      mkdirSync(path.join(target.dataDir, 'uploads', 'images', 'x'), { recursive: true });
      writeFileSync(path.join(target.dataDir, 'uploads', 'images', 'x', '320.webp'), 'old');
      const restore = runRestore({
        config: target.config,
        file: archive,
        progress: noProgress,
        log,
      });
      await expect(restore).rejects.toBeInstanceOf(RestoreRefusedError);
      await expect(restore).rejects.toThrow(/DATA_DIR\/uploads\) already holds 1 files/);
      await expectEmpty(target);
    } finally {
      await target.close();
    }
  });

  it('refuses a database that already holds rows, and leaves them as they were', async () => {
    const target = await createInstallation(TEST_ENGINE);
    try {
      const app = await startApp(target);
      await addUser(app);
      const rowsBefore = await allRows(app.database.db);
      await app.close();
      const restore = runRestore({
        config: target.config,
        file: archive,
        progress: noProgress,
        log,
      });
      await expect(restore).rejects.toBeInstanceOf(RestoreRefusedError);
      await expect(restore).rejects.toThrow(
        /The target database already holds data \(users: 1 rows, sessions: 1 rows\)\. Nothing was changed/,
      );
      const again = await target.openDatabase();
      expect(await allRows(again.db)).toEqual(rowsBefore);
      await again.close();
    } finally {
      await target.close();
    }
  });

  it('reports a corrupted archive (a file whose bytes changed) and restores nothing', async () => {
    const bytes = Buffer.from(readFileSync(archive));
    const webp = bytes.indexOf('WEBPVP8'); // inside the first image file's entry
    bytes[webp + 40] = bytes[webp + 40]! ^ 0xff;
    const corrupted = path.join(work, 'corrupted.tar');
    writeFileSync(corrupted, bytes);
    const target = await createInstallation(TEST_ENGINE);
    try {
      const restore = runRestore({
        config: target.config,
        file: corrupted,
        progress: noProgress,
        log,
      });
      await expect(restore).rejects.toBeInstanceOf(ArchiveError);
      await expect(restore).rejects.toThrow(
        /The archive is corrupted: files\/images\/[0-9a-f-]{36}\/\w+\.webp does not match its checksum/,
      );
      await expectEmpty(target);
    } finally {
      await target.close();
    }
  });

  it('reports a truncated archive', async () => {
    const bytes = readFileSync(archive);
    const truncated = path.join(work, 'truncated.tar');
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const target = await createInstallation(TEST_ENGINE);
    try {
      await expect(
        runRestore({ config: target.config, file: truncated, progress: noProgress, log }),
      ).rejects.toThrow(ArchiveError);
      await expectEmpty(target);
    } finally {
      await target.close();
    }
  });
});

async function expectEmpty(target: Installation) {
  if (target.engine === 'pglite') {
    expect(existsSync(embeddedDbDir(target.dataDir))).toBe(false); // not even created
    return;
  }
  const database = await target.openDatabase();
  try {
    const rows = await allRows(database.db);
    expect(Object.values(rows).flat()).toEqual([]);
  } finally {
    await database.close();
  }
}

/** A buyer's conversation about an active listing of another student (its events have an id sequence). */
async function startConversation(app: TestApp, catalogue: Catalogue) {
  for (const listingId of catalogue.listingIds) {
    const route = routeCaller(() => app);
    const listing = dataOf(await route('GET /api/listing/get/:id', { params: { id: listingId } }));
    const buyer = catalogue.users.find((u) => u.id !== listing.userRef);
    if (listing.status !== 'active' || !buyer) continue;
    const res = await route('POST /api/conversations', {
      as: buyer,
      body: { listingId, text: 'Before the backup' },
    });
    if (!res.ok) throw new Error(`conversation failed: ${res.status} ${res.text}`);
    expect(res.status).toBe(201);
    return { listingId, buyer };
  }
  throw new Error('no active listing to write about');
}
