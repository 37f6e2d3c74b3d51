/**
 * A restore stopped on a row the database refused (a rule of the schema: a unique index, a foreign
 * key, a NOT NULL column, a check, a value of the wrong type), during the load or during a migration
 * that brought the archive's rows up to this version. Nothing was kept: the message names the row
 * and the rule, as `row <table> <key>: <rule>`.
 */
export class RestoreFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreFailedError';
  }
}

/** What PostgreSQL (and PGlite) tell about an error; drizzle wraps it as `cause`. */
interface DatabaseErrorFields {
  code: string;
  message: string;
  table?: string;
  column?: string;
  constraint?: string;
  detail?: string;
}

/** The database's own error inside a driver's or drizzle's wrapper, or undefined. */
export function databaseErrorOf(error: unknown): DatabaseErrorFields | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return e as DatabaseErrorFields;
  }
  return undefined;
}

/** Integrity (23…) and data (22…) errors: a row's content, not the machine. */
const isRowError = (code: string) => code.startsWith('23') || code.startsWith('22');

/** The rule a database error names, in words. */
export function ruleOf(e: DatabaseErrorFields): string {
  switch (e.code) {
    case '23505':
      return `the unique rule ${e.constraint ?? ''} (${e.message})`;
    case '23503':
      return `the foreign key ${e.constraint ?? ''} (${e.detail ?? e.message})`;
    case '23502':
      return `the column ${e.column ?? ''} must have a value (${e.message})`;
    case '23514':
      return `the check ${e.constraint ?? ''} (${e.message})`;
    default:
      return e.message;
  }
}

/** `(col, …)=(value, …)` from a detail such as `Key (id)=(…) already exists.` */
function keyOf(detail: string | undefined): string | undefined {
  const key =
    detail &&
    /^Key (\(.*\)=\(.*\))(?: already exists| is (?:not present|duplicated)| conflicts)/s.exec(
      detail,
    );
  if (key) return key[1];
  const failing = detail && /^Failing row contains \((.*)\)\.?$/s.exec(detail);
  if (failing) return `(${failing[1]!.split(', ')[0]}, …)`;
  return undefined;
}

/**
 * A RestoreFailedError for a row the database refused, or the error itself when it is not about a row.
 * `row` is the table and key the restore knows (a row it was inserting); otherwise the database's.
 */
export function describeRowFailure(error: unknown, row?: { table: string; key: string }): unknown {
  const e = databaseErrorOf(error);
  if (!e || !isRowError(e.code)) return error;
  const table = row?.table ?? e.table ?? 'of a table';
  const key = row?.key ?? keyOf(e.detail) ?? '(key unknown)';
  return new RestoreFailedError(
    `row ${table} ${key}: ${ruleOf(e)}. Nothing was restored: the database and the file store are ` +
      'as they were before the restore.',
  );
}
