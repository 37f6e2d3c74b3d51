import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { IMAGE_VARIANTS, imageIdFromUrl } from '@campus-books/common/images';
import { TEST_ENGINE, createTestApp, openTestDatabase } from '../../test/helpers';
import { createListingAs } from '../../test/listing-fixtures';
import { releaseImages } from '../features/images/images.service';
import { uploadImage } from '../../test/support/tus-test-client';
import { createLocalStorage } from '../lib/storage/local-storage';
import type { Storage } from '../lib/storage/storage';
import { allImageFileKeys, imageFileKeys, writeBackup } from './backup';
import { photo } from '../../test/support/catalogue';
import { addUser } from '../../test/support/ops-installations';
import { restoreBackup } from './restore';

describe(`a backup while the data changes (${TEST_ENGINE})`, () => {
  const work = mkdtempSync(path.join(tmpdir(), 'cb-consistency-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('takes a new snapshot when an image is deleted after the first one, and restores consistently', async () => {
    const t = await createTestApp();
    try {
      const seller = await addUser(t);
      const kept = (await uploadImage(t.app, seller.cookie, await photo(1))).json().url as string;
      const doomed = (await uploadImage(t.app, seller.cookie, await photo(2))).json().url as string;
      await createListingAs(t, seller, { name: 'Kept book', imageUrls: [kept] });
      const doomedListing = await createListingAs(t, seller, {
        name: 'Deleted book',
        imageUrls: [doomed],
      });
      const doomedKeys = new Set(allImageFileKeys(imageIdFromUrl(doomed)!));

      // The first read of one of the doomed image's files finds the seller deleting its listing:
      // the listing row and the image's files and row go, after the backup's first snapshot.
      let deleted = false;
      const racing: Storage = {
        ...t.app.storage,
        get: async (key) => {
          if (!deleted && doomedKeys.has(key)) {
            deleted = true;
            const res = await t.app.inject({
              method: 'DELETE',
              url: `/api/listing/delete/${doomedListing._id}`,
              headers: { cookie: seller.cookie },
            });
            expect(res.statusCode).toBe(200);
            // Deleting the listing already deleted its image: nothing is left to release.
            expect(await releaseImages(t.app.images, [doomed])).toBe(0);
          }
          return t.app.storage.get(key);
        },
      };
      const archive = path.join(work, 'racing.tar');
      const manifest = await writeBackup({
        database: t.database,
        storage: racing,
        output: createWriteStream(archive),
      });
      expect(deleted).toBe(true);
      expect(manifest.snapshotRounds).toBe(2);
      expect(manifest.counts).toMatchObject({
        listings: 1,
        images: 1,
        files: IMAGE_VARIANTS.length,
      });
      expect(manifest.files.map((f) => f.key).sort()).toEqual(
        allImageFileKeys(imageIdFromUrl(kept)!).sort(),
      );
      expect(manifest.warnings).toEqual([]);

      const target = await openTestDatabase();
      const store = createLocalStorage(path.join(work, 'restored-uploads'));
      try {
        const { verification } = await restoreBackup({ archive, database: target, storage: store });
        expect(verification.listingImagesChecked).toBe(1);
        const names = (await target.db.execute(sql`SELECT name FROM listings`)) as unknown as {
          rows: { name: string }[];
        };
        expect(names.rows).toEqual([{ name: 'Kept book' }]);
      } finally {
        await target.close();
      }
    } finally {
      await t.close();
    }
  });

  it('does not leave a half-written archive readable when the store fails', async () => {
    const t = await createTestApp();
    try {
      const seller = await addUser(t);
      const url = (await uploadImage(t.app, seller.cookie, await photo(3))).json().url as string;
      await createListingAs(t, seller, { imageUrls: [url] });
      const failing: Storage = {
        ...t.app.storage,
        get: async () => {
          throw new Error('store unreachable');
        },
      };
      const archive = path.join(work, 'failed.tar');
      await expect(
        writeBackup({ database: t.database, storage: failing, output: createWriteStream(archive) }),
      ).rejects.toThrow(/store unreachable/);
      // What reached the disk (possibly nothing: the stream opens on its first write) has no
      // manifest, so no restore would accept it.
      const written = existsSync(archive) ? await readFile(archive) : Buffer.alloc(0);
      expect(written.includes('manifest.json')).toBe(false);
    } finally {
      await t.close();
    }
  });
  it('backs up an image stored before the 480 and 960 widths existed, without a warning', async () => {
    const t = await createTestApp();
    try {
      const seller = await addUser(t);
      const url = (await uploadImage(t.app, seller.cookie, await photo(3))).json().url as string;
      await createListingAs(t, seller, { name: 'Old photo', imageUrls: [url] });
      const id = imageIdFromUrl(url)!;
      for (const width of [480, 960]) await t.app.storage.delete(`images/${id}/${width}.webp`);

      const archive = path.join(work, 'older-image.tar');
      const manifest = await writeBackup({
        database: t.database,
        storage: t.app.storage,
        output: createWriteStream(archive),
      });
      expect(manifest.warnings).toEqual([]);
      expect(manifest.snapshotRounds).toBe(1);
      expect(manifest.files.map((f) => f.key).sort()).toEqual(imageFileKeys(id).sort());

      const target = await openTestDatabase();
      const store = createLocalStorage(path.join(work, 'older-image-uploads'));
      try {
        const { verification } = await restoreBackup({ archive, database: target, storage: store });
        expect(verification.listingImagesChecked).toBe(1);
        expect(await store.get(`images/${id}/640.webp`)).toBeTruthy();
      } finally {
        await target.close();
      }
    } finally {
      await t.close();
    }
  });
});
