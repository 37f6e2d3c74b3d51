import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * The backup archive (docs/decisions/004-backup-format.md): a tar holding
 *   files/<storage key>    every file of every image the database snapshot knows
 *   db/<table>.jsonl       one JSON object per row (PostgreSQL's row_to_json), in restore order
 *   manifest.json          last: what the archive holds, with counts and a sha256 of every entry
 */
export const ARCHIVE_FORMAT = 'campus-books-backup';
export const ARCHIVE_VERSION = 1;
export const MANIFEST_ENTRY = 'manifest.json';
export const tableEntry = (table: string) => `db/${table}.jsonl`;
export const fileEntry = (key: string) => `files/${key}`;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

export const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.literal(ARCHIVE_VERSION),
  createdAt: z.string(),
  source: z.object({ engine: z.enum(['pglite', 'postgres']), store: z.enum(['local', 's3']) }),
  /** The campus backed up alone (`npm run backup -- --campus <key>`); none: the default campus. */
  campus: z.string().optional(),
  /** Migrations applied to the source: a restore needs code that has at least these. */
  schema: z.object({ migrations: z.number().int().min(0), lastMigrationAt: z.number() }),
  tables: z.array(
    z.object({
      name: z.string().regex(/^[a-z_][a-z0-9_]*$/),
      columns: z.array(z.string().regex(/^[a-z_][a-z0-9_]*$/)),
      rows: z.number().int().min(0),
      sha256: sha256Hex,
    }),
  ),
  counts: z.object({
    users: z.number().int(),
    listings: z.number().int(),
    activeListings: z.number().int(),
    soldListings: z.number().int(),
    images: z.number().int(),
    files: z.number().int(),
    fileBytes: z.number().int(),
  }),
  files: z.array(z.object({ key: z.string(), size: z.number().int().min(0), sha256: sha256Hex })),
  /** Database snapshots taken until every image file of the last one was copied. */
  snapshotRounds: z.number().int().min(1),
  /** Problems found in the source (e.g. an image whose files were already missing). */
  warnings: z.array(z.string()),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type TableManifest = Manifest['tables'][number];
export type FileManifest = Manifest['files'][number];

export const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** One table's rows as the archive stores them: one JSON text per line. */
export const jsonLines = (rows: readonly string[]) =>
  rows.length === 0 ? '' : `${rows.join('\n')}\n`;

export function parseManifest(raw: Buffer): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ArchiveError('manifest.json is not valid JSON');
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    throw new ArchiveError(
      `manifest.json is not a Campus Books backup manifest (${parsed.error.issues[0]?.message})`,
    );
  }
  return parsed.data;
}

/** The archive is unreadable, incomplete or corrupted; the message says which part. */
export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveError';
  }
}

/** A restore target already holds data, or cannot take this archive. */
export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

/** The one-line summary every command ends with. */
export function summaryLine(verb: string, manifest: Manifest, seconds: number, bytes?: number) {
  const c = manifest.counts;
  const parts = [
    `${c.users} users`,
    `${c.listings} listings (${c.activeListings} active, ${c.soldListings} sold)`,
    `${c.images} images`,
    `${c.files} files (${formatBytes(c.fileBytes)})`,
  ];
  if (bytes !== undefined) parts.push(`archive ${formatBytes(bytes)}`);
  const campus = manifest.campus === undefined ? '' : ` of campus ${manifest.campus}`;
  return `${verb}${campus}: ${parts.join(', ')} in ${seconds.toFixed(1)} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
