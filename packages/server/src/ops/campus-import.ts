import {
  existsSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import type { CampusConfigInput } from '@campus-books/common/campus-config';
import { campusFileOf, DEFAULT_CAMPUS_FILE, parseCampus } from '../config/campus-file';
import { describeKeysInUse, findKeysInUseOf, type KeyInUse } from './campus-keys-in-use';
import {
  describeChange,
  diffList,
  keyOf,
  listOf,
  readListCsv,
  type CampusListItem,
  type CampusListKind,
} from './campus-lists';

/** The largest registrar's file read: a thousand subjects take a few tens of KB. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

export interface CampusImportIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** The rows that store keys the import removes (tests give their database's answer). */
  keysInUse?: (kind: CampusListKind, keys: readonly string[]) => Promise<KeyInUse[]>;
}

const isSame = (a: string, b: string) => {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
};

/**
 * The campus file's text with `kind` replaced by `items`, every other field and every comment as
 * they were (YAML's document API); validated as the server would read it, or a CampusConfigError.
 */
export function replaceListInCampusText(
  source: string,
  file: string,
  kind: CampusListKind,
  items: readonly CampusListItem[],
): string {
  const document = parseDocument(source, { uniqueKeys: true });
  let text: string;
  if (file.endsWith('.json')) {
    const campus = document.toJS() as Record<string, unknown>;
    text = `${JSON.stringify({ ...campus, [kind]: items }, null, 2)}\n`;
  } else {
    document.set(kind, document.createNode(items));
    text = document.toString({ lineWidth: 100 });
  }
  parseCampus(text, file);
  return text;
}

/**
 * `npm run campus -- import subjects|majors <file.csv> [--dry-run] [--campus <file>]`: replaces a
 * list of the campus file with a registrar's CSV file, printing what changes. Exit codes: 0 done,
 * 64 usage, 65 a bad row, a key still in use or an invalid result (nothing written), 66 no such
 * CSV file, 78 the campus file is the shipped default's.
 */
export async function runCampusImport(
  args: string[],
  env: NodeJS.ProcessEnv,
  io: CampusImportIo,
): Promise<number> {
  const [kindArg, ...rest] = args;
  const dryRun = rest.includes('--dry-run');
  const campusAt = rest.indexOf('--campus');
  const positionals = rest.filter(
    (arg, i) => arg !== '--dry-run' && arg !== '--campus' && (campusAt < 0 || i !== campusAt + 1),
  );
  if (
    (kindArg !== 'subjects' && kindArg !== 'majors') ||
    positionals.length !== 1 ||
    positionals[0]!.startsWith('--') ||
    (campusAt >= 0 && !rest[campusAt + 1])
  ) {
    return usage(io);
  }
  const kind: CampusListKind = kindArg;
  const csvFile = path.resolve(positionals[0]!);
  const file = campusAt >= 0 ? path.resolve(rest[campusAt + 1]!) : campusFileOf(env);

  if (isSame(file, DEFAULT_CAMPUS_FILE)) {
    io.err(
      `${file} is the default campus shipped with the server: an import does not edit it. ` +
        'Run `npm run campus -- init`, or copy it to DATA_DIR/campus.yaml, then import again.\n',
    );
    return 78;
  }
  if (!existsSync(csvFile)) {
    io.err(`${csvFile}: no such file\n`);
    return 66;
  }
  if (statSync(csvFile).size > MAX_FILE_BYTES) {
    io.err(`${csvFile} is larger than 5 MB: is it the registrar's list of ${kind}?\n`);
    return 65;
  }
  const { items, problems } = readListCsv(kind, readFileSync(csvFile, 'utf8'));
  if (problems.length > 0) {
    io.err(
      `${csvFile}: ${problems.length} problem(s), nothing was written:\n` +
        `${problems.map((p) => `  ${p}`).join('\n')}\n`,
    );
    return 65;
  }

  let source: string;
  let next: string;
  let before: CampusListItem[];
  try {
    source = readFileSync(file, 'utf8');
    parseCampus(source, file);
    before = listOf(kind, parseDocument(source).toJS() as CampusConfigInput);
    next = replaceListInCampusText(source, file, kind, items);
  } catch (error) {
    io.err(`${(error as Error).message}\nNothing was written.\n`);
    return 65;
  }

  const change = diffList(kind, before, items);
  io.out(`${describeChange(kind, change, file)}\n`);
  const removedKeys = change.removed.map((item) => keyOf(kind, item));
  const inUse = await (io.keysInUse ?? ((k, keys) => findKeysInUseOf(env, k, keys)))(
    kind,
    removedKeys,
  );
  if (inUse.length > 0) {
    io.err(
      `Refused: the import removes ${kind} that data still uses; keep them in the file ` +
        `(nothing was written):\n${describeKeysInUse(inUse)}\n`,
    );
    return 65;
  }
  if (dryRun) {
    io.out('Dry run: nothing was written.\n');
    return 0;
  }
  // Never an invalid file (`next` passed parseCampus), never a half-written one: a rename.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, next, { mode: statSync(file).mode & 0o777 });
  renameSync(temporary, file);
  io.out(`Wrote ${file}: restart the server to serve the new list.\n`);
  return 0;
}

function usage(io: CampusImportIo): number {
  io.err(
    'Usage: npm run campus -- import subjects|majors <file.csv> [--dry-run] [--campus <campus.yaml>]\n',
  );
  return 64;
}
