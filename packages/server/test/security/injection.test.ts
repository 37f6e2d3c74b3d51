import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { rowsOf } from '../../src/db/rows';
import { routeCaller } from '../api-caller';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../helpers';
import { insertListings } from '../listing-fixtures';
import { printFigure } from './security-helpers';

/**
 * LIKE wildcards and injected statements in the search (SQL metacharacters in every parameter are
 * in features/listings/listings.search-params.test.ts).
 */
describe(`search: wildcards are literal, injected SQL never runs (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    await insertListings(t, seller.id, [
      { name: 'Calculus' },
      { name: 'Organic Chemistry 100% Solutions' },
      { name: 'C_Programming' },
      { name: 'Paths with a \\ backslash' },
      { name: 'Percentage Problems' },
    ]);
  });
  afterAll(() => t.close());

  const names = async (query: { searchTerm?: string }) => {
    const res = await routeCaller(() => t)('GET /api/listing/get', { query });
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    return dataOf(res)
      .map((l) => l.name)
      .sort();
  };

  it.each([
    ['%', ['Organic Chemistry 100% Solutions']],
    ['_', ['C_Programming']],
    ['\\', ['Paths with a \\ backslash']],
    ['%%', []],
    ['C_P', ['C_Programming']],
    ['100%', ['Organic Chemistry 100% Solutions']],
  ])('a search for %j matches only names containing it literally', async (term, expected) => {
    expect(await names({ searchTerm: term })).toEqual(expected);
  });

  /**
   * Whether SQL injected through a parameter ran: every payload calls nextval() on this sequence,
   * which no transaction undoes and every connection sees, so a payload that ran even once, on any
   * pooled connection, leaves `is_called` true. No clock is involved.
   */
  const PROBE = 'injection_probe';
  const probeFired = async () => {
    const [row] = await rowsOf<{ is_called: boolean }>(
      t.database.db,
      sql.raw(`SELECT is_called FROM ${PROBE}`),
    );
    return row!.is_called;
  };

  it('runs no SQL smuggled into any text parameter', async () => {
    await t.database.db.execute(sql.raw(`CREATE SEQUENCE ${PROBE}`));
    const call = `nextval('${PROBE}')`;
    const payloads = [
      `x' || ${call} || '`,
      `x'); SELECT ${call}; --`,
      `%' AND 1=(SELECT ${call}) AND '%'='`,
      `$$; SELECT ${call}; $$`,
      `x\\'; SELECT ${call}; --`,
    ];
    // The probe detects a payload that runs: the first one, pasted into a statement as text.
    await t.database.db.execute(sql.raw(`SELECT 'x' || ${call} || ''`));
    expect(await probeFired()).toBe(true);
    await t.database.db.execute(sql.raw(`ALTER SEQUENCE ${PROBE} RESTART`));
    expect(await probeFired()).toBe(false);

    const answers: Record<string, number> = {};
    for (const payload of payloads) {
      for (const param of ['searchTerm', 'major', 'courseNumber']) {
        const res = await t.app.inject({ url: '/api/listing/get', query: { [param]: payload } });
        answers[`${param}=${payload}`] = res.statusCode;
        expect([200, 400]).toContain(res.statusCode);
        if (res.statusCode === 200) expect(res.json()).toEqual([]);
      }
    }
    printFigure(`injected SQL payloads, answer statuses (${TEST_ENGINE})`, answers);
    expect(await probeFired()).toBe(false);
    expect(await names({})).toHaveLength(5);
  });
});
