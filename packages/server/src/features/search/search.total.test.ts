import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, type ApiCallOptions } from '@campus-books/common/call-route';
import { routeCaller } from '../../../test/api-caller';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createListingAs, insertListings } from '../../../test/listing-fixtures';
import { SEARCH_COUNT_CAP } from './statements';

type SearchQuery = ApiCallOptions<'GET /api/listing/get'>['query'];

/** The search answers an array (the spec's contract) and its total in X-Total-Count (docs/api). */
describe(`the total of a search (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    seller = await createUser(t);
    await insertListings(t, seller.id, [
      { name: 'Organic Chemistry', courseNumber: '205', condition: 'good' },
      { name: 'Organic Chemistry II', courseNumber: '206', condition: 'good' },
      { name: 'Chemistry Lab Manual', courseNumber: '205', condition: 'mint' },
      { name: 'Microeconomics', courseNumber: '101', subject: 'ECON', condition: 'good' },
      { name: 'Economics of Chemistry', courseNumber: '330', condition: 'poor' },
      { name: 'Sold Chemistry', courseNumber: '205', status: 'sold' },
      { name: 'Expired Chemistry', courseNumber: '205', status: 'expired' },
      { name: 'Statistics', courseNumber: '200', isbn: '9780131103627' },
    ]);
  });
  afterAll(() => t.close());

  const route = routeCaller(() => t);
  const search = async (query: SearchQuery) => {
    const res = await route('GET /api/listing/get', { query });
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    return {
      names: dataOf(res).map((l) => l.name),
      total: res.headers.get('x-total-count') ?? undefined,
      capped: res.headers.get('x-total-count-capped') ?? undefined,
    };
  };

  it('counts every active match, past the page asked for', async () => {
    expect(await search({ limit: 2 })).toMatchObject({ total: '6', capped: undefined });
    const filtered = await search({ courseNumber: '205', limit: 1 });
    expect(filtered.names).toHaveLength(1);
    expect(filtered.total).toBe('2');
    expect((await search({ courseNumber: '205', condition: 'mint' })).total).toBe('1');
    expect(await search({ startIndex: 100 })).toEqual({ names: [], total: '6', capped: undefined });
    expect((await search({ courseNumber: '999' })).total).toBe('0');
  });

  it('pages through every active listing in each order, with the total on every page', async () => {
    const orders: SearchQuery[] = [
      {},
      { order: 'asc' },
      { sort: 'regularPrice', order: 'asc' },
      { sort: 'regularPrice' },
    ];
    for (const order of orders) {
      const all = await search({ ...order, limit: 50 });
      expect(all.names).toHaveLength(6);
      for (const startIndex of [1, 2, 5]) {
        const page = await search({ ...order, startIndex, limit: 2 });
        expect(page, `${JSON.stringify(order)} from ${startIndex}`).toEqual({
          names: all.names.slice(startIndex, startIndex + 2),
          total: '6',
          capped: undefined,
        });
      }
    }
  });

  it('counts both tiers of a term search, a course code and an ISBN', async () => {
    // Best matches ('chemistry' exactly) and the others make one total.
    const term = await search({ searchTerm: 'chemistry', limit: 2 });
    expect(term.names).toHaveLength(2);
    expect(term.total).toBe('4');
    expect((await search({ searchTerm: 'chemistry', sort: 'regularPrice' })).total).toBe('4');
    // The course first, then names with its words: 'Microeconomics' (ECON 101) and 'Economics of …'.
    expect((await search({ searchTerm: 'ECON 101' })).total).toBe('1');
    expect((await search({ searchTerm: '978-0-13-110362-7' })).total).toBe('1');
    expect((await search({ searchTerm: 'nonexistentword' })).total).toBe('0');
  });

  it('counts an ISBN with more active copies than the page holds', async () => {
    const isbn = '9780262033848';
    await insertListings(t, seller.id, [
      { name: 'Algorithms', courseNumber: '301', isbn },
      { name: 'Algorithms', courseNumber: '301', isbn },
      { name: 'Algorithms', courseNumber: '301', isbn },
      { name: 'Algorithms', courseNumber: '301', isbn, status: 'sold' },
    ]);
    const page = await search({ searchTerm: isbn, limit: 2 });
    expect(page.names).toHaveLength(2);
    expect(page.total).toBe('3');
    expect((await search({ searchTerm: isbn })).total).toBe('3');
  });

  it('answers a repeated search with its total, and a write changes it at once', async () => {
    const first = await search({ searchTerm: 'organic', courseNumber: '205' });
    const cached = t.app.listingCaches.searches?.size ?? 0;
    expect(await search({ searchTerm: 'organic', courseNumber: '205' })).toEqual(first);
    expect(first.total).toBe('1');
    if (TEST_ENGINE === 'pglite') {
      // The second answer came from the cache (no new entry), with its total.
      expect(cached).toBeGreaterThan(0);
      expect(t.app.listingCaches.searches?.size).toBe(cached);
    }
    await createListingAs(t, seller, { name: 'Organic Chemistry Workbook', courseNumber: '205' });
    expect((await search({ searchTerm: 'organic', courseNumber: '205' })).total).toBe('2');
  });

  it(`stops counting past ${SEARCH_COUNT_CAP} matches and says so`, async () => {
    const many = Array.from({ length: SEARCH_COUNT_CAP }, (_, i) => ({
      name: `Bulk Reader ${i}`,
      courseNumber: '450',
    }));
    await insertListings(t, seller.id, many);
    // Rows written behind the API's back: start from empty caches.
    t.app.listingCaches.invalidate();
    expect(await search({ courseNumber: '450', limit: 1 })).toMatchObject({
      total: String(SEARCH_COUNT_CAP),
      capped: undefined,
    });
    expect(await search({ limit: 1 })).toMatchObject({
      total: String(SEARCH_COUNT_CAP),
      capped: 'true',
    });
    expect(await search({ searchTerm: 'reader', startIndex: 9 })).toMatchObject({
      total: String(SEARCH_COUNT_CAP),
      capped: undefined,
    });
  });
});
