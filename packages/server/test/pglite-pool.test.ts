import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import type { Database } from '../src/db/database';
import { rowsOf } from '../src/db/rows';
import { TEST_ENGINE } from './helpers';
import { lendPgliteDatabase, lentDatabaseNumber } from './pglite-pool';

const lend = () => {
  const dumpFile = inject('pgliteDumpFile');
  return lendPgliteDatabase(dumpFile, () => readFileSync(dumpFile));
};
const one = async <Row>(database: Database, query: ReturnType<typeof sql>) =>
  (await rowsOf<Row>(database.db, query))[0]!;

/** A file's traces in a database: rows, a sequence moved, session state, a LISTEN. */
async function leaveTraces(database: Database) {
  await database.db.execute(
    sql`INSERT INTO users (email, password_hash, first_name, last_name, username, groupmelink)
        VALUES ('left@example.edu', 'x', 'Left', 'Behind', 'left', 'https://groupme.com/x')`,
  );
  await database.db.execute(sql`SELECT nextval('conversation_event_seq')`);
  await database.db.execute(sql`UPDATE catalogue_version SET version = version + 41`);
  await database.db.execute(sql`SET statement_timeout = '1234ms'`);
  await database.db.execute(sql`SELECT pg_advisory_lock(4242)`);
  await database.db.execute(sql`CREATE TEMP TABLE scratch (a int)`);
  await database.listen('left_behind', () => {});
}

describe.skipIf(TEST_ENGINE !== 'pglite')('the embedded databases lent to test files', () => {
  // The worker's earlier files may have left databases on the shelf: each lent handle is traced to
  // the database it is on by that database's number.
  it("lends a closed one again, emptied: no rows, the migrations' rows back, a new session", async () => {
    const first = await lend();
    const seeded = await one<{ version: string }>(
      first,
      sql`SELECT version::text FROM catalogue_version`,
    );
    await leaveTraces(first);
    await first.close();

    const second = await lend();
    expect(lentDatabaseNumber(second), 'the one just closed, lent again').toBe(
      lentDatabaseNumber(first),
    );
    expect(await one(second, sql`SELECT count(*)::int AS n FROM users`)).toEqual({ n: 0 });
    expect(await one(second, sql`SELECT version::text FROM catalogue_version`)).toEqual(seeded);
    expect(await one(second, sql`SELECT nextval('conversation_event_seq')::int AS n`)).toEqual({
      n: 1,
    });
    expect(await one(second, sql`SELECT current_setting('statement_timeout') AS t`)).toEqual({
      t: '0',
    });
    expect(
      await one(second, sql`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'`),
    ).toEqual({ n: 0 });
    expect(await one(second, sql`SELECT to_regclass('pg_temp.scratch') AS t`)).toEqual({ t: null });
    expect(await one(second, sql`SELECT count(*)::int AS n FROM pg_listening_channels()`)).toEqual({
      n: 0,
    });
    await second.close();
  });

  it('leaves a handle dead once its file closed it, whoever has the database next', async () => {
    const first = await lend();
    await first.close();
    const second = await lend();
    expect(lentDatabaseNumber(second)).toBe(lentDatabaseNumber(first));
    // As a closed PGlite answers (its own words), through drizzle's "Failed query".
    const closed = { cause: { message: 'PGlite is closed' } };
    await expect(first.db.execute(sql`SELECT 1`)).rejects.toMatchObject(closed);
    await expect(first.ping()).rejects.toMatchObject(closed);
    await second.ping();
    await second.close();
  });

  it('never lends again a database whose tables, triggers, functions or settings a file changed', async () => {
    for (const change of [
      'ALTER TABLE rate_limits RENAME TO rate_limits_away',
      'ALTER TABLE listings DISABLE TRIGGER listings_write_json',
      "CREATE FUNCTION left_behind() RETURNS int LANGUAGE sql AS 'SELECT 1'",
      "ALTER DATABASE postgres SET statement_timeout = '1234ms'",
    ]) {
      const changed = await lend();
      await changed.db.execute(sql.raw(change));
      await changed.close();
      // More at once than the shelf keeps: every database it holds is among them.
      const next = await Promise.all([lend(), lend(), lend()]);
      expect(next.map(lentDatabaseNumber), change).not.toContain(lentDatabaseNumber(changed));
      for (const database of next) {
        expect(
          await one(database, sql`SELECT to_regclass('rate_limits') IS NOT NULL AS ok`),
        ).toEqual({ ok: true });
        await database.close();
      }
    }
    // Up to twelve fresh embedded databases: 30 s on a slow two-core machine under the whole run.
  }, 120_000);
});
