import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import {
  campusConfigSchema,
  campusProblems,
  type CampusConfig,
} from '@campus-books/common/campus-config';

/**
 * Where the campus comes from, in this order (docs/adopt.md):
 * 1. CAMPUS_CONFIG, a YAML or JSON file's path;
 * 2. campus.yaml, campus.yml or campus.json in DATA_DIR;
 * 3. the default campus shipped with the server (campus/default.yaml).
 * It is read once, at start: changing the campus needs a restart, never a rebuild.
 */
export const DEFAULT_CAMPUS_FILE = fileURLToPath(
  new URL('../../campus/default.yaml', import.meta.url),
);
const DATA_DIR_NAMES = ['campus.yaml', 'campus.yml', 'campus.json'];

/** A campus file that cannot be used, with every problem, one line each. */
export class CampusConfigError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`The campus file ${file} cannot be used:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'CampusConfigError';
  }
}

/** The campus file this environment names, or the default campus's. */
export function campusFileOf(env: { CAMPUS_CONFIG?: string; DATA_DIR?: string }): string {
  const named = env.CAMPUS_CONFIG?.trim();
  if (named) return path.resolve(named);
  const dataDir = path.resolve(env.DATA_DIR?.trim() || './data');
  for (const name of DATA_DIR_NAMES) {
    const file = path.join(dataDir, name);
    if (existsSync(file)) return file;
  }
  return DEFAULT_CAMPUS_FILE;
}

/** Parses a campus file's text (YAML, of which JSON is a part) and validates it. */
export function parseCampus(source: string, file: string): CampusConfig {
  const document = parseDocument(source, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new CampusConfigError(
      file,
      document.errors.map((error) => error.message.split('\n')[0]!),
    );
  }
  const parsed = campusConfigSchema.safeParse(document.toJS());
  if (!parsed.success) throw new CampusConfigError(file, campusProblems(parsed.error));
  return parsed.data;
}

/** Reads and validates a campus file. */
export function readCampusFile(file: string): CampusConfig {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error);
    throw new CampusConfigError(file, [reason]);
  }
  return parseCampus(source, file);
}

/** The campus this environment serves, and the file it was read from. */
export function loadCampus(env: { CAMPUS_CONFIG?: string; DATA_DIR?: string }): {
  campus: CampusConfig;
  file: string;
} {
  const file = campusFileOf(env);
  return { campus: readCampusFile(file), file };
}
