import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { list, extract } from 'tar';
import {
  ArchiveError,
  MANIFEST_ENTRY,
  fileEntry,
  parseManifest,
  tableEntry,
  type Manifest,
} from './manifest';

interface EntryDigest {
  size: number;
  sha256: string;
}

/** Reads the archive once, hashing every entry as it streams by; keeps only the manifest's bytes. */
async function digestArchive(file: string) {
  const digests = new Map<string, EntryDigest>();
  let manifestBytes: Buffer | undefined;
  try {
    await list({
      file,
      strict: true,
      onReadEntry: (entry) => {
        const hash = createHash('sha256');
        const chunks: Buffer[] = [];
        let size = 0;
        const isManifest = entry.path === MANIFEST_ENTRY;
        entry.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          size += chunk.length;
          if (isManifest) chunks.push(chunk);
        });
        entry.on('end', () => {
          digests.set(entry.path, { size, sha256: hash.digest('hex') });
          if (isManifest) manifestBytes = Buffer.concat(chunks);
        });
      },
    });
  } catch (error) {
    throw new ArchiveError(`${file} is not a readable tar archive: ${(error as Error).message}`);
  }
  if (!manifestBytes) {
    throw new ArchiveError(
      `${file} has no ${MANIFEST_ENTRY}: it is not a Campus Books backup, or it is truncated`,
    );
  }
  return { manifest: parseManifest(manifestBytes), digests };
}

/** Every entry the manifest names is present with its size and sha256; throws ArchiveError if not. */
function checkDigests(manifest: Manifest, digestOf: (entry: string) => EntryDigest | undefined) {
  const problems: string[] = [];
  const check = (entry: string, sha256: string, size?: number) => {
    const found = digestOf(entry);
    if (!found) problems.push(`${entry} is missing`);
    else if (found.sha256 !== sha256 || (size !== undefined && found.size !== size))
      problems.push(`${entry} does not match its checksum`);
  };
  for (const table of manifest.tables) check(tableEntry(table.name), table.sha256);
  for (const f of manifest.files) check(fileEntry(f.key), f.sha256, f.size);
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).join('; ');
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
    throw new ArchiveError(`The archive is corrupted: ${shown}${more}`);
  }
}

/** Reads a whole archive and checks it against its manifest without extracting anything. */
export async function verifyArchive(file: string): Promise<Manifest> {
  const { manifest, digests } = await digestArchive(file);
  checkDigests(manifest, (entry) => digests.get(entry));
  return manifest;
}

/**
 * Extracts the archive into `dir` (tar strips absolute paths and `..`, so nothing lands outside it)
 * and checks every extracted entry against the manifest.
 */
export async function extractArchive(file: string, dir: string): Promise<Manifest> {
  try {
    await extract({ file, cwd: dir, strict: true });
  } catch (error) {
    throw new ArchiveError(`${file} is not a readable tar archive: ${(error as Error).message}`);
  }
  let manifestBytes: Buffer;
  try {
    manifestBytes = await readFile(path.join(dir, MANIFEST_ENTRY));
  } catch {
    throw new ArchiveError(
      `${file} has no ${MANIFEST_ENTRY}: it is not a Campus Books backup, or it is truncated`,
    );
  }
  const manifest = parseManifest(manifestBytes);
  const digests = new Map<string, EntryDigest>();
  const entries = [
    ...manifest.tables.map((t) => tableEntry(t.name)),
    ...manifest.files.map((f) => fileEntry(f.key)),
  ];
  for (const entry of entries) {
    const data = await readFile(path.join(dir, entry)).catch(() => null);
    if (data) {
      digests.set(entry, {
        size: data.length,
        sha256: createHash('sha256').update(data).digest('hex'),
      });
    }
  }
  checkDigests(manifest, (entry) => digests.get(entry));
  return manifest;
}
