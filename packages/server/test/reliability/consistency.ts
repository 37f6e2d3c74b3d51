import path from 'node:path';
import { sql } from 'drizzle-orm';
import { imageIdFromUrl } from '@campus-books/common/images';
import { openDatabase } from '../../src/db/database';
import { createLocalStorage } from '../../src/lib/storage/local-storage';

export interface Consistency {
  listings: number;
  images: number;
  files: number;
  /** Listings showing an image whose files are not all stored. */
  listingsWithMissingFiles: string[];
  /** Stored files (images/<id>/…, tus/<id>/…) whose id has no images row. */
  filesWithoutOwnerRecord: string[];
  /** Images rows whose owner is gone while not being deleted. */
  rowsWithoutOwner: string[];
}

/**
 * Opens the installation the way the server does (after it stopped) and cross-checks the database
 * with the files in DATA_DIR/uploads.
 */
export async function checkConsistency(
  dataDir: string,
  databaseUrl?: string,
): Promise<Consistency & { ids: { listings: Set<string>; images: Set<string> } }> {
  const database = await openDatabase(
    databaseUrl
      ? { engine: 'postgres', url: databaseUrl, poolSize: 2 }
      : { engine: 'pglite', dataDir: path.join(dataDir, 'db') },
  );
  const storage = createLocalStorage(path.join(dataDir, 'uploads'));
  try {
    const listings = (
      (await database.db.execute(
        sql`SELECT id::text AS id, image_urls FROM listings`,
      )) as unknown as {
        rows: { id: string; image_urls: string[] }[];
      }
    ).rows;
    const images = (
      (await database.db.execute(
        sql`SELECT i.id::text AS id, i.status, (u.id IS NOT NULL) AS has_owner FROM images i LEFT JOIN users u ON u.id = i.owner_id`,
      )) as unknown as { rows: { id: string; status: string; has_owner: boolean }[] }
    ).rows;
    const files = await storage.list('');
    const fileKeys = new Set(files.map((f) => f.key));
    const imageIds = new Set(images.map((i) => i.id));

    const listingsWithMissingFiles = listings
      .filter((l) =>
        l.image_urls.some((url) => {
          const id = imageIdFromUrl(url);
          return (
            id !== null &&
            !['320', '640', '1280', 'full'].every((v) => fileKeys.has(`images/${id}/${v}.webp`))
          );
        }),
      )
      .map((l) => l.id);
    const filesWithoutOwnerRecord = files
      .map((f) => f.key)
      .filter((key) => {
        const [top, id] = key.split('/');
        return (top === 'images' || top === 'tus') && !imageIds.has(id!);
      });
    const rowsWithoutOwner = images
      .filter((i) => !i.has_owner && i.status !== 'deleting')
      .map((i) => i.id);
    return {
      listings: listings.length,
      images: images.length,
      files: files.length,
      listingsWithMissingFiles,
      filesWithoutOwnerRecord,
      rowsWithoutOwner,
      ids: { listings: new Set(listings.map((l) => l.id)), images: imageIds },
    };
  } finally {
    await storage.close();
    await database.close();
  }
}
