import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../../test/helpers';
import {
  alertsOf,
  databaseAtMigration,
  insertOldUser,
  insertPausedAndLiveCopies,
} from '../../test/support/older-schema';
import { knownMigrations, NewerSchemaError } from './migrator';

describe(`upgrading a database (${TEST_ENGINE})`, () => {
  it(
    'migration 0018 keeps the live alert of a paused and a live copy, and its digest choice',
    { timeout: 120_000 },
    async () => {
      const older = await databaseAtMigration('0017');
      try {
        const before = await older.open({ migrate: false });
        const userId = await insertOldUser(before, 'Paula');
        const { live } = await insertPausedAndLiveCopies(before, userId);
        await before.close();

        const upgraded = await older.open(); // the server's start: every pending migration
        try {
          expect(await alertsOf(upgraded, userId)).toEqual([
            { id: live, paused: false, digest: true },
          ]);
        } finally {
          await upgraded.close();
        }
      } finally {
        await older.drop();
      }
    },
  );

  it(
    'refuses to start on a database a newer release migrated, naming the migration',
    { timeout: 120_000 },
    async () => {
      const known = knownMigrations();
      const older = await databaseAtMigration(known.at(-1)!.tag.slice(0, 4));
      try {
        const database = await older.open({ migrate: false });
        // What the next release's first migration records when it runs.
        await database.db.execute(
          sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at)
              VALUES ('next', ${Date.UTC(2099, 0, 2)})`,
        );
        await database.close();

        const opening = older.open();
        await expect(opening).rejects.toBeInstanceOf(NewerSchemaError);
        await expect(opening).rejects.toThrow(
          `This database was upgraded by a newer release (migration ${String(known.length).padStart(4, '0')}, written 2099-01-02); run that release or restore a backup taken before the upgrade.`,
        );
        // Nothing was changed: the database still says what the newer release made it.
        const again = await older.open({ migrate: false });
        const [count] = (
          (await again.db.execute(
            sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`,
          )) as unknown as { rows: { n: number }[] }
        ).rows;
        await again.close();
        expect(count?.n).toBe(known.length + 1);
      } finally {
        await older.drop();
      }
    },
  );
});
