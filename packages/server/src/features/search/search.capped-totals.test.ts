import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TOTAL_COUNT_CAPPED_HEADER } from '@campus-books/common/constants';
import { dataOf } from '@campus-books/common/call-route';
import { routeCaller } from '../../../test/api-caller';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { insertListings } from '../../../test/listing-fixtures';
import { listings } from '../../db/schema';
import * as statements from './statements';

// A search matching more than SEARCH_COUNT_CAP listings shows the cap. New listings cannot take it
// under the cap, so its total is kept across them and only the page is read; a write that may take a
// listing out of the search (a sale, a delete) moves the catalogue's shrink version (migration 0032),
// and the total is counted again, exactly.
describe(`a total at the cap, kept while listings are only added (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let seller: { id: string };
  let ids: string[];
  const CAP = statements.SEARCH_COUNT_CAP;

  beforeAll(async () => {
    t = await createTestApp();
    seller = await createUser(t);
    ids = await insertListings(
      t,
      seller.id,
      Array.from({ length: CAP + 5 }, (_, i) => ({ name: `Calculus volume ${i}` })),
    );
    await insertListings(t, seller.id, [{ name: 'World History' }]);
    await t.database.db.execute(sql`ANALYZE listings`);
  }, 60_000);
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  const route = routeCaller(() => t);
  const search = async (searchTerm: string) => {
    const res = await route('GET /api/listing/get', { query: { searchTerm } });
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    return {
      total: Number(res.headers.get('x-total-count')),
      capped: res.headers.get(TOTAL_COUNT_CAPPED_HEADER) === 'true',
      count: dataOf(res).length,
      first: dataOf(res)[0]?.name,
    };
  };
  /** Searches, telling whether a count ran (a page with its total, or a count of its own). */
  const searchCounting = async (searchTerm: string) => {
    const page = vi.spyOn(statements, 'runPage');
    const count = vi.spyOn(statements, 'runCount');
    const answer = await search(searchTerm);
    const counted = page.mock.calls.some((call) => call[6] === true) || count.mock.calls.length > 0;
    vi.restoreAllMocks();
    return { ...answer, counted };
  };

  it('counts once, then keeps the capped total across new listings', async () => {
    const first = await searchCounting('calculus');
    expect(first).toMatchObject({ total: CAP, capped: true, count: 9, counted: true });

    await insertListings(t, seller.id, [{ name: 'Calculus, a new copy' }]);
    const afterInsert = await searchCounting('calculus');
    // The page is read again (the new listing is first), only the count is not.
    expect(afterInsert).toMatchObject({
      total: CAP,
      capped: true,
      count: 9,
      first: 'Calculus, a new copy',
      counted: false,
    });
  });

  it('counts again, exactly, once listings may have left the search', async () => {
    await search('calculus');
    // Sold: out of every search. 1,005 + 1 - 10 = 996 left, under the cap.
    await t.database.db
      .update(listings)
      .set({ status: 'sold', soldAt: new Date() })
      .where(inArray(listings.id, ids.slice(0, 10)));
    const afterSale = await searchCounting('calculus');
    expect(afterSale).toMatchObject({ total: CAP - 4, capped: false, counted: true });

    // A delete, too.
    await t.database.db.delete(listings).where(eq(listings.id, ids[10]!));
    expect(await searchCounting('calculus')).toMatchObject({
      total: CAP - 5,
      capped: false,
      counted: true,
    });
  });

  it('keeps no total that is under the cap across a new listing', async () => {
    expect(await search('history')).toMatchObject({ total: 1, capped: false });
    await insertListings(t, seller.id, [{ name: 'World History, second copy' }]);
    expect(await searchCounting('history')).toMatchObject({ total: 2, counted: true });
  });
});
