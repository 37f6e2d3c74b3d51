import { dataOf } from '@campus-books/common/call-route';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../../test/helpers';
import { openTwoCampuses, type TwoCampuses } from '../../test/two-campuses';
import { readCampusVersion } from './campus-versions';

// The catalogue versions of a server's campuses read together (campus-versions.ts), on PostgreSQL:
// two campuses registered by `campus add`, read by the login role through a pool of its own.
describe.skipIf(TEST_ENGINE !== 'postgres')("a server's campus versions read together", () => {
  let two: TwoCampuses;
  let pool: pg.Pool;
  let statements = 0;
  let lastStatement = '';

  const bump = (schema: string) =>
    two.admin.query(`UPDATE "${schema}".catalogue_version SET version = version + 1 WHERE id = 1`);
  const versionOf = async (schema: string) =>
    Number(
      (await two.admin.query(`SELECT version FROM "${schema}".catalogue_version WHERE id = 1`))
        .rows[0].version,
    );

  beforeAll(async () => {
    two = await openTwoCampuses();
    pool = new pg.Pool({ connectionString: two.url, max: 4 });
    // The pool's end does not wait for its connections to close, and the database's drop (WITH
    // FORCE) may end one still closing: that is no failure of the test (as the product's pools).
    pool.on('error', () => {});
    // Every statement the reads send, the pointing of a connection included.
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
        const text = typeof args[0] === 'string' ? args[0] : '';
        if (text.includes('catalogue_version')) {
          statements += 1;
          lastStatement = text;
        }
        return query(...args);
      };
    });
  });

  afterAll(async () => {
    await pool?.end();
    await two?.close();
  });

  it('gives each campus its own version, in one statement for both', async () => {
    await bump('campus_alpha');
    await bump('campus_alpha');
    const expected = [await versionOf('campus_alpha'), await versionOf('campus_beta')];
    expect(expected[0]).toBeGreaterThan(expected[1]!);
    // The first call starts a read at once; the others arrive during it and share the next one.
    await readCampusVersion(pool, 'campus_beta');
    statements = 0;
    const first = readCampusVersion(pool, 'campus_alpha');
    const during = await Promise.all([
      readCampusVersion(pool, 'campus_alpha'),
      readCampusVersion(pool, 'campus_beta'),
      readCampusVersion(pool, 'campus_alpha'),
      readCampusVersion(pool, 'campus_beta'),
    ]);
    expect(await first).toBe(expected[0]);
    expect(during).toEqual([expected[0], expected[1], expected[0], expected[1]]);
    expect(statements).toBe(2);
  });

  it('hands the callers of one campus in a round trip one promise, each caller one await', async () => {
    const first = readCampusVersion(pool, 'campus_alpha');
    const during = [
      readCampusVersion(pool, 'campus_alpha'),
      readCampusVersion(pool, 'campus_alpha'),
      readCampusVersion(pool, 'campus_beta'),
    ];
    expect(during[0]).toBe(during[1]);
    expect(during[0]).not.toBe(first);
    expect(during[2]).not.toBe(during[0]);
    expect(await Promise.all(during)).toEqual([
      await versionOf('campus_alpha'),
      await versionOf('campus_alpha'),
      await versionOf('campus_beta'),
    ]);
    await first;
  });

  it("calls each campus's catalogue_version_now(), or reads the table of a campus without it", async () => {
    await bump('campus_beta');
    const expected = [await versionOf('campus_alpha'), await versionOf('campus_beta')];
    const both = () =>
      Promise.all([
        readCampusVersion(pool, 'campus_alpha'),
        readCampusVersion(pool, 'campus_beta'),
      ]);
    expect(await both()).toEqual(expected);
    expect(lastStatement).toMatch(/"campus_beta"\.catalogue_version_now\(\)/);

    const [definition] = (
      await two.admin.query(
        `SELECT pg_get_functiondef('"campus_beta".catalogue_version_now()'::regprocedure) AS sql`,
      )
    ).rows as { sql: string }[];
    await two.admin.query('DROP FUNCTION "campus_beta".catalogue_version_now()');
    try {
      await bump('campus_beta');
      expected[1] = await versionOf('campus_beta');
      expect(await both()).toEqual(expected);
      expect(lastStatement).toMatch(/FROM "campus_beta"\.catalogue_version WHERE/);
    } finally {
      await two.admin.query(definition!.sql);
    }
  });

  it('never hands a caller a read that started before it: a change committed first is seen', async () => {
    const before = await versionOf('campus_beta');
    const inFlight = readCampusVersion(pool, 'campus_beta');
    await bump('campus_beta');
    const after = readCampusVersion(pool, 'campus_beta');
    expect(await inFlight).toBeGreaterThanOrEqual(before);
    expect(await after).toBe(before + 1);
  });

  it('fails the batch of a schema it cannot read, and the next batch reads again', async () => {
    await expect(readCampusVersion(pool, 'campus_nowhere')).rejects.toThrow(/campus_nowhere/);
    await expect(readCampusVersion(pool, 'campus_alpha')).resolves.toBe(
      await versionOf('campus_alpha'),
    );
    await expect(readCampusVersion(pool, 'campus alpha')).rejects.toThrow(/plain identifier/);
  });

  it("serves each campus's cached searches fresh after a write on either campus", async () => {
    const alpha = await two.studentOf('alpha');
    const search = async (key: 'alpha' | 'beta') =>
      dataOf(await two.call(key, 'GET /api/listing/get', { query: { searchTerm: 'zymurgy' } }))
        .length;
    expect(await search('alpha')).toBe(0);
    expect(await search('beta')).toBe(0);
    await two.listingOf('alpha', alpha, { name: 'Zymurgy for Brewers' });
    expect(await search('alpha')).toBe(1);
    expect(await search('beta')).toBe(0);
  });
});
