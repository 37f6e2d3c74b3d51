import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { eq, sql } from 'drizzle-orm';
import { drizzle, type PgliteDatabase } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { TEST_ENGINE } from '../../test/helpers';
import { withParsersKept } from './pglite-parsers';
import * as schema from './schema';
import { jobs } from './platform.schema';

/** Every type drizzle-orm reads as text, in a raw statement (rowMode object). */
const TYPED_VALUES = sql`SELECT
  timestamp '2026-12-05 01:02:03.456' AS ts,
  timestamptz '2026-12-05 01:02:03.456+00' AS tstz,
  interval '1 day 02:03:04' AS iv,
  date '2026-12-05' AS d,
  ARRAY[1.5, 2]::numeric[] AS nums,
  ARRAY[timestamp '2026-01-01 10:00'] AS tss,
  ARRAY[timestamptz '2026-01-01 10:00+00'] AS tstzs,
  ARRAY[interval '1 hour'] AS ivs,
  ARRAY[date '2026-01-01'] AS ds,
  ARRAY[1, 2]::int[] AS ints,
  '{"a": 1}'::jsonb AS doc`;

type Db = PgliteDatabase<typeof schema>;

/** What drizzle reads: raw statements, a table's typed columns, and the same in a transaction. */
async function readings(db: Db) {
  const key = `parsers-${randomUUID()}`;
  await db.insert(jobs).values({
    name: 'parsers',
    key,
    runAt: new Date('2026-12-05T01:02:03.456Z'),
    intervalMs: 60_000,
  });
  const row = async (on: Pick<Db, 'select'>) =>
    (
      await on
        .select({ runAt: jobs.runAt, payload: jobs.payload, attempts: jobs.attempts })
        .from(jobs)
        .where(eq(jobs.key, key))
    )[0];
  return {
    raw: (await db.execute(TYPED_VALUES)).rows,
    row: await row(db),
    inTransaction: await db.transaction(async (tx) => ({
      raw: (await tx.execute(TYPED_VALUES)).rows,
      row: await row(tx),
    })),
  };
}

// The module is PGlite's: its project's migrated copy is enough.
describe.skipIf(TEST_ENGINE !== 'pglite')(
  'PGlite with the driver’s parsers kept in the client',
  () => {
    let client: PGlite;
    beforeAll(async () => {
      client = await PGlite.create({
        loadDataDir: new Blob([readFileSync(inject('pgliteDumpFile'))]),
        extensions: { pg_trgm },
      });
    }, 60_000);
    afterAll(async () => {
      await client?.close();
    });

    it('reads every type as drizzle-orm alone does, in and out of a transaction; the client’s queries carry no parsers of their own', async () => {
      const before = await readings(drizzle(client, { schema }));
      expect(before.row?.runAt).toEqual(new Date('2026-12-05T01:02:03.456Z'));

      const sent: (QueryOptions | undefined)[] = [];
      const query = client.query.bind(client);
      vi.spyOn(client, 'query').mockImplementation((text, params, options) => {
        sent.push(options);
        return query(text, params, options);
      });
      const after = await readings(drizzle(withParsersKept(client), { schema }));

      expect(after).toEqual(before);
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.filter((options) => options?.parsers)).toEqual([]);
    });
  },
);
