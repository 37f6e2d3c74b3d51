import type { Db } from './db-type';

/**
 * A `Db` that stands for another one chosen at each use (a many-campus installation's facade,
 * campuses/campus-database.ts) answers this property with the handle it stands for now.
 */
export const CURRENT_HANDLE = Symbol('current database handle');

const suffixes = new WeakMap<Db, string>();

/** The handle a use of `db` goes to: itself, or the facade's current one. */
export function currentHandle(db: Db): Db {
  return (db as Db & { [CURRENT_HANDLE]?: Db })[CURRENT_HANDLE] ?? db;
}

/**
 * Marks a campus's handle: its named statements carry `suffix`, since one pooled connection serves
 * several campuses and a name must always mean the same statement text on a connection.
 */
export function nameStatementsOf(db: Db, suffix: string): void {
  suffixes.set(db, suffix);
}

/** A statement's name as sent by `db`'s handle. */
export function statementName(db: Db, name: string): string {
  const suffix = suffixes.get(db);
  return suffix && name !== '' ? `${name}_${suffix}` : name;
}
