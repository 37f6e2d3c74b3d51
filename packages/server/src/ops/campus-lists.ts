import { majorValueOf } from '@campus-books/common/active-campus';
import {
  campusMajorSchema,
  campusSubjectSchema,
  type CampusConfigInput,
} from '@campus-books/common/campus-config';
import { parseCsvRecords, type CsvRecords } from '../lib/csv';

/** The campus file's lists a registrar's CSV file can replace. */
export type CampusListKind = 'subjects' | 'majors';
export type CampusSubject = { code: string; name: string };
export type CampusMajor = string | { label: string; aliases: string[] };
export type CampusListItem = CampusSubject | CampusMajor;

/** The header each list's CSV file starts with (majors: `aliases` may be left out). */
export const LIST_HEADERS: Record<CampusListKind, { required: string[]; optional: string[] }> = {
  subjects: { required: ['code', 'name'], optional: [] },
  majors: { required: ['label'], optional: ['aliases'] },
};

/**
 * The key data stores for an item: a subject's code, a major's stored value (its label without
 * punctuation, as listings and alerts keep it: active-campus.ts majorValueOf).
 */
export function keyOf(kind: CampusListKind, item: CampusListItem): string {
  if (kind === 'subjects') return (item as CampusSubject).code;
  return majorValueOf(typeof item === 'string' ? item : (item as { label: string }).label);
}

/** How an item reads in the change report. */
export function describeItem(kind: CampusListKind, item: CampusListItem): string {
  if (kind === 'subjects') return `${(item as CampusSubject).code} ${(item as CampusSubject).name}`;
  if (typeof item === 'string') return item;
  const major = item as { label: string; aliases?: string[] };
  return major.aliases && major.aliases.length > 0
    ? `${major.label} (${major.aliases.join('; ')})`
    : major.label;
}

/** The list as a campus file holds it (its input form: a major may be a plain label). */
export function listOf(kind: CampusListKind, campus: CampusConfigInput): CampusListItem[] {
  return [...((kind === 'subjects' ? campus.subjects : campus.majors) ?? [])] as CampusListItem[];
}

/**
 * A registrar's CSV file as the list's items, or every bad row by its row number (the header is
 * row 1, as a spreadsheet numbers it). Values are trimmed; each row is checked by the campus
 * schema's rule for the list, and a key named twice is refused.
 */
export function readListCsv(
  kind: CampusListKind,
  csv: string,
): { items: CampusListItem[]; problems: string[] } {
  let records: CsvRecords;
  try {
    records = parseCsvRecords(csv);
  } catch (error) {
    const row = (error as { lines?: number }).lines ?? 0;
    return { items: [], problems: [`row ${row}: not valid CSV: ${(error as Error).message}`] };
  }
  const { required, optional } = LIST_HEADERS[kind];
  const header = records[0]?.record.map((h) => h.toLowerCase()) ?? [];
  const knownHeader =
    header.length >= required.length &&
    header.every((name, i) =>
      i < required.length ? required[i] === name : optional.includes(name),
    );
  if (!knownHeader) {
    const wanted = [required.join(','), ...optional.map((o) => `${required.join(',')},${o}`)];
    return {
      items: [],
      problems: [`row 1: the header must be ${wanted.join(' or ')} (found "${header.join(',')}")`],
    };
  }
  const items: CampusListItem[] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of records.slice(1)) {
    const row = info.lines;
    // A row may leave an optional column out (a major without aliases), never a required one.
    if (record.length < required.length || record.length > header.length) {
      problems.push(`row ${row}: ${record.length} value(s), the header names ${header.length}`);
      continue;
    }
    const cell = (name: string) => record[header.indexOf(name)] ?? '';
    let item: CampusListItem;
    if (kind === 'subjects') {
      const parsed = campusSubjectSchema.safeParse({ code: cell('code'), name: cell('name') });
      if (!parsed.success) {
        problems.push(`row ${row}: ${rowProblems(parsed.error.issues).join('; ')}`);
        continue;
      }
      item = parsed.data;
    } else {
      const aliases = cell('aliases')
        .split(';')
        .map((a) => a.trim())
        .filter(Boolean);
      // The object form's rules, so a problem names its field (the union would only say "invalid").
      const parsed = campusMajorSchema.options[1].safeParse({ label: cell('label'), aliases });
      if (!parsed.success) {
        problems.push(`row ${row}: ${rowProblems(parsed.error.issues).join('; ')}`);
        continue;
      }
      item = aliases.length > 0 ? parsed.data : parsed.data.label;
    }
    const key = keyOf(kind, item);
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push(`row ${row}: "${key}" is on row ${first} already`);
      continue;
    }
    seen.set(key, row);
    items.push(item);
  }
  return { items, problems };
}

function rowProblems(issues: Array<{ path: PropertyKey[]; message: string }>): string[] {
  return issues.map((issue) => {
    const where = issue.path.filter((p) => typeof p === 'string').join('.');
    return `${where}: ${issue.message}`;
  });
}

/** What replacing a list changes, by key (a subject's code, a major's stored value). */
export interface ListChange {
  added: CampusListItem[];
  removed: CampusListItem[];
  renamed: Array<{ from: CampusListItem; to: CampusListItem }>;
  unchanged: number;
}

export function diffList(
  kind: CampusListKind,
  before: readonly CampusListItem[],
  after: readonly CampusListItem[],
): ListChange {
  const old = new Map(before.map((item) => [keyOf(kind, item), item]));
  const next = new Set(after.map((item) => keyOf(kind, item)));
  const change: ListChange = { added: [], removed: [], renamed: [], unchanged: 0 };
  for (const item of after) {
    const previous = old.get(keyOf(kind, item));
    if (previous === undefined) change.added.push(item);
    else if (describeItem(kind, previous) !== describeItem(kind, item))
      change.renamed.push({ from: previous, to: item });
    else change.unchanged += 1;
  }
  change.removed = before.filter((item) => !next.has(keyOf(kind, item)));
  return change;
}

/** The change, as the command prints it: a summary line, then one line per item changed. */
export function describeChange(kind: CampusListKind, change: ListChange, file: string): string {
  const lines = [
    `${kind} of ${file}: ${change.added.length} added, ${change.removed.length} removed, ` +
      `${change.renamed.length} renamed, ${change.unchanged} unchanged`,
    ...change.added.map((item) => `  + ${describeItem(kind, item)}`),
    ...change.removed.map((item) => `  - ${describeItem(kind, item)}`),
    ...change.renamed.map(
      ({ from, to }) => `  ~ ${describeItem(kind, from)} → ${describeItem(kind, to)}`,
    ),
  ];
  return lines.join('\n');
}
