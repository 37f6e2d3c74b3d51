import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, type ApiCallOptions } from '@campus-books/common/call-route';
import type { ListingSearchQuery } from '@campus-books/common/listing.schemas';
import { routeCaller } from '../../../test/api-caller';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { insertListings } from '../../../test/listing-fixtures';
import { ORDER_WINDOW } from './shapes';
import { searchStatements } from './statements';

// A term's first page (its best matches: every word of it) is looked for first among the
// ORDER_WINDOW first listings in the search's order (search/shapes.ts, isWindowWorthTrying), and by
// the words' index only when those hold less than a page. Whichever way finds them, the pages are
// the search's rule: best matches newest first, then the other matches, with the total.
describe(`a term's best matches, looked for among the newest listings first (${TEST_ENGINE})`, () => {
  let t: TestApp;
  const day = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 3_600_000);
  // Oldest first: 12 'Organic Chemistry' (best for 'organic chemistry'), 6 'Biochemistry of
  // Organic …' (other matches: 'biochemistry' contains 'chemistry'), then a window's worth of other
  // books, then 5 'Organic Chemistry' and 2 'Biochemistry' more, the newest.
  const oldBest = Array.from({ length: 12 }, (_, i) => ({
    name: `Organic Chemistry old ${i}`,
    createdAt: day(i),
  }));
  const others = Array.from({ length: 6 }, (_, i) => ({
    name: `Biochemistry of Organic Compounds ${i}`,
    createdAt: day(20 + i),
  }));
  const filler = Array.from({ length: ORDER_WINDOW }, (_, i) => ({
    name: `World History part ${i}`,
    createdAt: day(100 + i),
  }));
  const newBest = Array.from({ length: 5 }, (_, i) => ({
    name: `Organic Chemistry new ${i}`,
    createdAt: day(100 + ORDER_WINDOW + i),
  }));
  const newOthers = Array.from({ length: 2 }, (_, i) => ({
    name: `Biochemistry of Organic Cells ${i}`,
    createdAt: day(200 + ORDER_WINDOW + i),
  }));
  // 45 names of two words found only together: PostgreSQL, taking them as independent, expects
  // one; the vocabulary's bound says 45 at most, enough for a page among the window's listings.
  const databases = Array.from({ length: 45 }, (_, i) => ({
    name: `Database Systems ${i}`,
    createdAt: day(600 + i * 10 + 0.5),
  }));
  const newestFirst = (rows: { name: string; createdAt: Date }[]) =>
    [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).map((r) => r.name);

  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    await insertListings(t, seller.id, [
      ...oldBest,
      ...others,
      ...filler,
      ...databases,
      ...newBest,
      ...newOthers,
      { name: 'Organic Chemistry sold', status: 'sold' as const, createdAt: day(9_999) },
    ]);
    // The catalogue's size as PostgreSQL estimates it (what autovacuum keeps up to date).
    await t.database.db.execute(sql`ANALYZE listings`);
  }, 60_000);
  afterAll(() => t.close());

  const route = routeCaller(() => t);
  const search = async (query: ApiCallOptions<'GET /api/listing/get'>['query']) => {
    const res = await route('GET /api/listing/get', { query });
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    return {
      names: dataOf(res).map((l) => l.name),
      total: Number(res.headers.get('x-total-count')),
    };
  };

  type Query = ListingSearchQuery & { limit?: number };
  const firstStatement = async (query: Query) => (await searchStatements(t.database.db, query))[0]!;

  /**
   * Whether the best matches' first page read the words' index (EXPLAIN ANALYZE of its statement,
   * with sequential scans off: at this size PostgreSQL would otherwise read the table whole).
   */
  const readsWordsIndex = async (query: Query): Promise<boolean> => {
    const built = (await firstStatement(query)).toSQL();
    const parts = built.sql.split(/\$(\d+)/);
    const chunks: SQL[] = parts.map((part, i) =>
      i % 2 === 1 ? sql`${sql.param(built.params[Number(part) - 1])}` : sql.raw(part),
    );
    const cell = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const result = (await tx.execute(
        sql`EXPLAIN (ANALYZE, FORMAT JSON) ${sql.join(chunks)}`,
      )) as unknown as { rows: Record<string, unknown>[] };
      return Object.values(result.rows[0]!)[0];
    });
    const plan: unknown = typeof cell === 'string' ? JSON.parse(cell) : cell;
    const loops: number[] = [];
    const visit = (node: Record<string, unknown>) => {
      if (node['Index Name'] === 'listings_name_words_idx')
        loops.push(Number(node['Actual Loops']));
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) visit(child);
    };
    visit((plan as { Plan: Record<string, unknown> }[])[0]!.Plan);
    expect(loops.length, 'the statement has a way through the words index').toBeGreaterThan(0);
    return loops.some((n) => n > 0);
  };

  it('finds a page among the newest without the words index', async () => {
    // 5 best matches are among the newest: a page of 5 is found there.
    const query = { searchTerm: 'organic chemistry', limit: 5 };
    expect(await readsWordsIndex(query)).toBe(false);
    const res = await route('GET /api/listing/get', { query });
    expect(dataOf(res).map((l) => l.name)).toEqual(newestFirst(newBest));
  });

  it('gives the same pages as the rule when the newest hold too few', async () => {
    expect(await readsWordsIndex({ searchTerm: 'organic chemistry' })).toBe(true);
    const best = newestFirst([...newBest, ...oldBest]);
    const rest = newestFirst([...newOthers, ...others]);
    const all = [...best, ...rest];
    for (const startIndex of [0, 9, 18]) {
      const page = await search({ searchTerm: 'organic chemistry', startIndex });
      expect(page.names).toEqual(all.slice(startIndex, startIndex + 9));
      expect(page.total).toBe(all.length);
    }
  });

  it('finds the first page of a term with one group of matches among the window', async () => {
    expect(await readsWordsIndex({ searchTerm: 'database systems' })).toBe(false);
    const page = await search({ searchTerm: 'database systems' });
    expect(page.names).toEqual(newestFirst(databases).slice(0, 9));
    expect(page.total).toBe(45);
    const later = await search({ searchTerm: 'database systems', startIndex: 40 });
    expect(later.names).toEqual(newestFirst(databases).slice(40));
  });

  it('keeps to the oldest first when asked', async () => {
    const page = await search({ searchTerm: 'organic chemistry', order: 'asc' });
    expect(page.names).toEqual(
      newestFirst([...newBest, ...oldBest])
        .reverse()
        .slice(0, 9),
    );
  });

  it('does not look among the newest when the vocabulary says too few could be there', async () => {
    // 'compounds' is in 6 names: fewer than a page's share of the newest window at this size.
    const query = { searchTerm: 'chemistry compounds' };
    expect((await firstStatement(query)).toSQL().sql).not.toContain('window_page');
    expect((await firstStatement({ searchTerm: 'organic chemistry' })).toSQL().sql).toContain(
      'window_page',
    );
    const page = await search(query);
    expect(page.names).toEqual(newestFirst(others));
  });

  it('answers 25 such searches at once the same way', async () => {
    const expected = newestFirst([...newBest, ...oldBest]).slice(0, 9);
    const pages = await Promise.all(
      Array.from({ length: 25 }, () => search({ searchTerm: 'organic chemistry' })),
    );
    for (const page of pages) expect(page.names).toEqual(expected);
  });
});
