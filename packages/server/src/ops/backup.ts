import type { Writable } from 'node:stream';
import { IMAGE_WIDTHS, LATER_IMAGE_WIDTHS } from '@campus-books/common/images';
import type { Database } from '../db/database';
import type { Storage } from '../lib/storage/storage';
import { ArchiveWriter } from './archive-writer';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  MANIFEST_ENTRY,
  fileEntry,
  jsonLines,
  sha256,
  tableEntry,
  type FileManifest,
  type Manifest,
} from './manifest';
import { noProgress, type Progress } from './progress';
import { takeSnapshot, type DatabaseSnapshot, type ImageState } from './snapshot';

/**
 * Storage keys of an image's files: one WebP per width and the full size (features/images). Every
 * processed image has the required ones; the widths added later (480, 960) are copied when present.
 */
const fileKey = (id: string, variant: string) => `images/${id}/${variant}.webp`;
export const imageFileKeys = (id: string) =>
  [...IMAGE_WIDTHS.filter((w) => !LATER_IMAGE_WIDTHS.includes(w)), 'full'].map((variant) =>
    fileKey(id, String(variant)),
  );
const optionalImageFileKeys = (id: string) => LATER_IMAGE_WIDTHS.map((w) => fileKey(id, String(w)));
const isOptionalKey = (key: string) => LATER_IMAGE_WIDTHS.some((w) => key.endsWith(`/${w}.webp`));
export const allImageFileKeys = (id: string) => [
  ...imageFileKeys(id),
  ...optionalImageFileKeys(id),
];

/** Images whose files must exist: processed ones. Uploads in progress and deletions have none to keep. */
const hasFiles = (image: ImageState) =>
  image.status === 'ready' || image.status === 'attached' || image.status === 'in_message';

const READ_CONCURRENCY = 8;
const MAX_SNAPSHOT_ROUNDS = 10;

export interface BackupOptions {
  database: Database;
  /** The store as the campus sees it (campuses/campus-storage.ts): its keys are the archive's. */
  storage: Storage;
  /** A campus of a many-campus installation (decision 024): its key and schema; default `public`. */
  campus?: { key: string; schema: string };
  output: Writable;
  progress?: Progress;
}

/**
 * Writes one consistent backup archive while the product keeps running (decision 004).
 *
 * A database snapshot is taken, then the files of every processed image in it are copied. An image's
 * files are written before its row says `ready` and are never rewritten (its id is new per upload),
 * so a file that is missing was deleted after the snapshot: another snapshot is taken and only the
 * files not copied yet are read. The last snapshot's rows and exactly its images' files form the
 * manifest, so the archive restores to one moment of the database with every file it refers to.
 */
export async function writeBackup(options: BackupOptions): Promise<Manifest> {
  const { database, storage } = options;
  const progress = options.progress ?? noProgress;
  const writer = new ArchiveWriter(options.output);
  const copied = new Map<string, FileManifest>();
  try {
    let snapshot: DatabaseSnapshot;
    let missing: string[] = [];
    let rounds = 0;
    for (;;) {
      rounds += 1;
      snapshot = await takeSnapshot(database.db, options.campus?.schema);
      const previouslyMissing = missing;
      const toCopy = snapshot.images
        .filter(hasFiles)
        .flatMap((image) => allImageFileKeys(image.id))
        .filter((key) => !copied.has(key));
      // An older image without the later widths is complete: only required files can be missing.
      missing = (await copyFiles(storage, writer, toCopy, copied, progress)).filter(
        (key) => !isOptionalKey(key),
      );
      const unchanged =
        missing.length === previouslyMissing.length &&
        missing.every((key, i) => key === previouslyMissing[i]);
      // Files still missing after a fresh snapshot that still wants them are gone for good.
      if (missing.length === 0 || unchanged || rounds >= MAX_SNAPSHOT_ROUNDS) break;
    }

    const tables: Manifest['tables'] = [];
    for (const table of snapshot.tables) {
      const content = Buffer.from(jsonLines(table.rows));
      await writer.add(tableEntry(table.name), content);
      tables.push({
        name: table.name,
        columns: table.columns,
        rows: table.rows.length,
        sha256: sha256(content),
      });
      progress({ phase: 'tables', done: tables.length, total: snapshot.tables.length });
    }

    const files = snapshot.images
      .filter(hasFiles)
      .flatMap((image) => allImageFileKeys(image.id))
      .flatMap((key) => copied.get(key) ?? []);
    const rowsOf = (name: string) => tables.find((t) => t.name === name)?.rows ?? 0;
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      createdAt: new Date().toISOString(),
      source: { engine: database.engine, store: storage.kind },
      ...(options.campus ? { campus: options.campus.key } : {}),
      schema: snapshot.schema,
      tables,
      counts: {
        users: rowsOf('users'),
        listings: rowsOf('listings'),
        activeListings: snapshot.listingsByStatus.active ?? 0,
        soldListings: snapshot.listingsByStatus.sold ?? 0,
        images: rowsOf('images'),
        files: files.length,
        fileBytes: files.reduce((sum, f) => sum + f.size, 0),
      },
      files,
      snapshotRounds: rounds,
      warnings: missing.map(
        (key) => `${key} is missing from the store (its image row says it exists)`,
      ),
    };
    await writer.add(MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 1)));
    await writer.finish();
    return manifest;
  } catch (error) {
    writer.abort(error as Error);
    throw error;
  }
}

/** Copies files into the archive (reads in parallel, writes in order); answers the keys not found. */
async function copyFiles(
  storage: Storage,
  writer: ArchiveWriter,
  keys: string[],
  copied: Map<string, FileManifest>,
  progress: Progress,
): Promise<string[]> {
  const missing: string[] = [];
  for (let start = 0; start < keys.length; start += READ_CONCURRENCY) {
    const batch = keys.slice(start, start + READ_CONCURRENCY);
    const contents = await Promise.all(batch.map((key) => storage.get(key)));
    for (const [i, key] of batch.entries()) {
      const data = contents[i];
      if (!data) {
        missing.push(key);
        continue;
      }
      await writer.add(fileEntry(key), data);
      copied.set(key, { key, size: data.length, sha256: sha256(data) });
    }
    progress({
      phase: 'files',
      done: Math.min(start + READ_CONCURRENCY, keys.length),
      total: keys.length,
      bytes: writer.bytesWritten,
    });
  }
  return missing;
}
