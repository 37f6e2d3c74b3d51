/**
 * The names a campus of a many-campus installation takes in PostgreSQL (decision 024): its schema and
 * the role that owns it are both `campus_<key>`; the default campus keeps `public` and the login role.
 */

import { CAMPUS_KEY } from '@campus-books/common/campus-consortium';

/** A campus key: what its schema and role are named after, so letters, digits and `_` only. */
export { CAMPUS_KEY };

export class CampusKeyError extends Error {
  constructor(key: string) {
    super(
      `"${key}" is not a campus key: lower-case letters, digits and _, starting with a letter, ` +
        'at most 40 characters',
    );
    this.name = 'CampusKeyError';
  }
}

/** The schema (and the role owning it) of the campus `key`. */
export function campusSchemaOf(key: string): string {
  if (!CAMPUS_KEY.test(key)) throw new CampusKeyError(key);
  return `campus_${key}`;
}

/** An identifier quoted for SQL; only names checked by CAMPUS_KEY (or `public`) reach it. */
export function quoted(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`${name} is not a plain identifier`);
  return `"${name}"`;
}

const PUBLIC_PREFIX = /(?<![\w$."])"?public"?\./g;

/**
 * A statement written for the default campus (`public.`, drizzle-kit's `"public".` in foreign keys,
 * functions and triggers) rewritten for `schema`; the default campus's statement as it is.
 */
export function inSchema(statement: string, schema: string): string {
  return schema === 'public' ? statement : statement.replace(PUBLIC_PREFIX, `${quoted(schema)}.`);
}

/**
 * The NOTIFY channel of `channel` for a campus: the default campus's is the channel itself, another's
 * carries its schema, so one campus's listeners never hear another's events.
 */
export function campusChannel(channel: string, schema: string): string {
  return schema === 'public' ? channel : `${channel}.${schema}`;
}

/**
 * A migration's statement as applied to `schema`: rewritten into it; null for an extension's
 * creation, which is the database's, not a schema's (made with the campus's schema, in `public`).
 */
export function migrationStatementIn(statement: string, schema: string): string | null {
  if (schema !== 'public' && /^\s*CREATE EXTENSION\b/i.test(statement)) return null;
  return inSchema(statement, schema);
}
