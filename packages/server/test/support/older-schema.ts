import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/db/database';
import { applyMigrations, knownMigrations } from '../../src/db/migrator';
import { createPostgresDatabase, TEST_ENGINE } from '../helpers';

/** Test support: a database as an older release left it, to upgrade or back up. */

/** The `created_at` the bookkeeping records for the migration whose file starts with `number`. */
export function migrationAt(number: string): number {
  const migration = knownMigrations().find((m) => m.tag.startsWith(`${number}_`));
  if (!migration) throw new Error(`no migration ${number}`);
  return migration.createdAt;
}

export interface OlderDatabase {
  /** Opens the database as the server does (migrating it to this version) or as it is. */
  open(options?: { migrate?: boolean }): Promise<Database>;
  drop(): Promise<void>;
}

/**
 * A database on this run's engine (an embedded one in a folder of its own, or a new PostgreSQL
 * database) migrated up to and including migration `number`, as the release that ended there did.
 */
export async function databaseAtMigration(number: string): Promise<OlderDatabase> {
  const pgDb = TEST_ENGINE === 'postgres' ? await createPostgresDatabase(false) : null;
  const dir = pgDb ? null : mkdtempSync(path.join(tmpdir(), 'cb-older-'));
  const open = ({ migrate = true }: { migrate?: boolean } = {}) =>
    pgDb
      ? openDatabase({ engine: 'postgres', url: pgDb.url, poolSize: 2, migrate })
      : openDatabase({ engine: 'pglite', dataDir: path.join(dir!, 'db'), migrate });
  const database = await open({ migrate: false });
  try {
    await database.db.transaction(async (tx) => {
      await applyMigrations(tx, migrationAt(number));
    });
  } finally {
    await database.close();
  }
  return {
    open,
    drop: async () => {
      await pgDb?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A user row as every schema since 0001 takes it; its id. */
export async function insertOldUser(database: Database, name: string): Promise<string> {
  const result = (await database.db.execute(
    sql`INSERT INTO users (first_name, last_name, username, email, password_hash, groupmelink)
        VALUES (${name}, 'Old', ${name}, ${`${name.toLowerCase()}@richmond.edu`}, 'x',
                ${`https://groupme.com/contact/${name.toLowerCase()}`})
        RETURNING id`,
  )) as unknown as { rows: { id: string }[] };
  return result.rows[0]!.id;
}

/**
 * Two alerts with the same filters, as the release before migration 0018 allowed: the older one
 * paused, the newer one live with the daily digest the student chose last. Their ids.
 */
export async function insertPausedAndLiveCopies(database: Database, userId: string) {
  const insert = async (values: { paused: boolean; digest: boolean; at: string }) => {
    const result = (await database.db.execute(
      sql`INSERT INTO alerts (user_id, search_term, term_words, subject, course_number, paused,
                              digest, created_at, updated_at)
          VALUES (${userId}, 'Linear Algebra', ARRAY['linear', 'algebra'], 'MATH', '211',
                  ${values.paused}, ${values.digest}, ${values.at}, ${values.at})
          RETURNING id`,
    )) as unknown as { rows: { id: string }[] };
    return result.rows[0]!.id;
  };
  const paused = await insert({ paused: true, digest: false, at: '2026-08-01T12:00:00Z' });
  const live = await insert({ paused: false, digest: true, at: '2026-09-01T12:00:00Z' });
  return { paused, live };
}

/** The alerts of a user after the upgrade: what the student has left. */
export async function alertsOf(database: Database, userId: string) {
  const result = (await database.db.execute(
    sql`SELECT id, paused, digest FROM alerts WHERE user_id = ${userId} ORDER BY created_at`,
  )) as unknown as { rows: { id: string; paused: boolean; digest: boolean }[] };
  return result.rows;
}
