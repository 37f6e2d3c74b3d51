import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../helpers';
import { insertListings } from '../listing-fixtures';
import { printFigure } from './security-helpers';

/**
 * LIKE wildcards and time-based payloads in the search (SQL metacharacters in every parameter are
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

  const names = async (query: Record<string, string>) => {
    const res = await t.app.inject({ url: '/api/listing/get', query });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { name: string }[]).map((l) => l.name).sort();
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

  it('runs no pg_sleep payload in any text parameter (each answer printed with its time)', async () => {
    // Each payload sleeps 2 s if it runs: an answer in less is one where the sleep did not run.
    const SLEEP_MS = 2000;
    const payloads = [
      "x' || pg_sleep(2) || '",
      "x'); SELECT pg_sleep(2); --",
      "%' AND 1=(SELECT 1 FROM pg_sleep(2)) AND '%'='",
      '$$; SELECT pg_sleep(2); $$',
    ];
    const timings: Record<string, number> = {};
    for (const payload of payloads) {
      for (const param of ['searchTerm', 'major', 'courseNumber']) {
        const started = performance.now();
        const res = await t.app.inject({ url: '/api/listing/get', query: { [param]: payload } });
        timings[`${param}=${payload.slice(0, 12)}`] = Math.round(performance.now() - started);
        expect([200, 400]).toContain(res.statusCode);
        if (res.statusCode === 200) expect(res.json()).toEqual([]);
      }
    }
    printFigure(`pg_sleep payload answer times ms (${TEST_ENGINE})`, timings);
    for (const [request, ms] of Object.entries(timings)) {
      expect(ms, `${request} took as long as the injected sleep`).toBeLessThan(SLEEP_MS);
    }
    expect(await names({})).toHaveLength(5);
  });
});
