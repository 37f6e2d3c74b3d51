import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, type ApiCallOptions } from '@campus-books/common/call-route';
import { routeCaller } from '../../../test/api-caller';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { insertListings } from '../../../test/listing-fixtures';

// A term common enough by the vocabulary's counts is searched by walking the order's index with the
// GIN index hidden (search/shapes.ts, isWalkCheaper); a rare one as before. Both must give the
// same pages as the rule of the search says, in date and in price order, deep pages included.
describe(`a common term's pages, found by walking the order's index (${TEST_ENGINE})`, () => {
  let t: TestApp;
  // 30 of 40 names hold "calculus": 30² ≥ (startIndex + 9) × 40 up to startIndex 13.
  const calculus = Array.from({ length: 30 }, (_, i) => ({
    name: `Calculus volume ${i}`,
    regularPrice: 5 + ((i * 7) % 30),
    createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
  }));
  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    await insertListings(t, seller.id, [
      ...calculus,
      ...Array.from({ length: 10 }, (_, i) => ({
        name: `World History ${i}`,
        createdAt: new Date(Date.UTC(2026, 1, 1 + i)),
      })),
      { name: 'Calculus sold', status: 'sold' as const },
    ]);
    // The catalogue's size as PostgreSQL estimates it (what autovacuum keeps up to date).
    await t.database.db.execute(sql`ANALYZE listings`);
  });
  afterAll(() => t.close());

  const route = routeCaller(() => t);
  const names = async (query: ApiCallOptions<'GET /api/listing/get'>['query']) => {
    const res = await route('GET /api/listing/get', { query });
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    return {
      names: dataOf(res).map((l) => l.name),
      total: Number(res.headers.get('x-total-count')),
    };
  };
  const newestFirst = [...calculus].reverse().map((l) => l.name);
  const cheapestFirst = [...calculus]
    .sort((a, b) => a.regularPrice - b.regularPrice)
    .map((l) => l.name);

  it('gives the newest matches first, page after page, with the total', async () => {
    for (const searchTerm of ['calculus', 'calclus', 'CALCULUS']) {
      for (const start of [0, 9, 18, 27]) {
        const page = await names({ searchTerm, startIndex: start });
        expect(page.names).toEqual(newestFirst.slice(start, start + 9));
        expect(page.total).toBe(30);
      }
    }
  });

  it('keeps to a price order asked for', async () => {
    // Distinct prices (7 and 30 are coprime): one order only.
    for (const start of [0, 9]) {
      const page = await names({
        searchTerm: 'calculus',
        sort: 'regularPrice',
        order: 'asc',
        startIndex: start,
      });
      expect(page.names).toEqual(cheapestFirst.slice(start, start + 9));
    }
  });

  it('finds a rare term as before', async () => {
    const page = await names({ searchTerm: 'history' });
    expect(page.names).toEqual(Array.from({ length: 9 }, (_, i) => `World History ${9 - i}`));
    expect(page.total).toBe(10);
  });

  it('answers the same search sent 25 times at once the same way', async () => {
    const pages = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        names({ searchTerm: 'calclus', startIndex: (i % 4) * 9 }),
      ),
    );
    pages.forEach((page, i) =>
      expect(page.names).toEqual(newestFirst.slice((i % 4) * 9, (i % 4) * 9 + 9)),
    );
  });
});
