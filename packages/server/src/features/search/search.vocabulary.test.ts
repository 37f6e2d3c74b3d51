import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listing } from '@campus-books/common/listing.schemas';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { createListingAs, insertListings, listingBody } from '../../../test/listing-fixtures';
import { listings } from '../../db/schema';

const minutesAgo = (n: number) => new Date(Date.UTC(2026, 0, 1) - n * 60_000);

async function vocabulary(t: TestApp): Promise<Record<string, number>> {
  const result = (await t.database.db.execute(
    sql`SELECT word, listings FROM listing_words ORDER BY word`,
  )) as unknown as { rows: { word: string; listings: number }[] };
  return Object.fromEntries(result.rows.map((r) => [r.word, r.listings]));
}

describe(`the vocabulary of listing names (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('counts the listings holding each word of 3+ characters, whoever writes them', async () => {
    const seller = await createUser(t);
    const [first, second] = await insertListings(t, seller.id, [
      { name: 'Organic Chemistry' },
      { name: 'ORGANIC chemistry: Lab Manual, 2nd ed.' },
    ]);
    expect(await vocabulary(t)).toEqual({ organic: 2, chemistry: 2, lab: 1, manual: 1, '2nd': 1 });

    await t.database.db
      .update(listings)
      .set({ name: 'Physics Lab Manual' })
      .where(eq(listings.id, second!));
    expect(await vocabulary(t)).toEqual({
      organic: 1,
      chemistry: 1,
      lab: 1,
      manual: 1,
      physics: 1,
    });

    // Not a rename: the counts stay.
    await t.database.db.update(listings).set({ status: 'sold' }).where(eq(listings.id, first!));
    expect(await vocabulary(t)).toMatchObject({ organic: 1, chemistry: 1 });

    await t.database.db.delete(listings).where(eq(listings.id, first!));
    expect(await vocabulary(t)).toEqual({ lab: 1, manual: 1, physics: 1 });
  });

  it('follows the API: create, rename, delete, and account deletion leave no word behind', async () => {
    const seller = await createUser(t);
    const listing = await createListingAs(t, seller, { name: 'Thermodynamics Primer' });
    expect(await vocabulary(t)).toMatchObject({ thermodynamics: 1, primer: 1 });
    const renamed = await t.app.inject({
      method: 'POST',
      url: `/api/listing/update/${listing._id}`,
      headers: { cookie: seller.cookie },
      payload: listingBody({ name: 'Statics Primer', imageUrls: listing.imageUrls }),
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await vocabulary(t)).not.toHaveProperty('thermodynamics');
    expect(await vocabulary(t)).toMatchObject({ statics: 1, primer: 1 });
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/delete/${seller.id}`,
      headers: { cookie: seller.cookie },
      payload: { currentPassword: seller.password },
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await vocabulary(t)).not.toHaveProperty('statics');
    expect(await vocabulary(t)).not.toHaveProperty('primer');
  });
});

describe(`search terms: typos, word order, best matches first, pages (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    const names = [
      'Organic Chemistry',
      'Calclus Made Easy', // a seller's typo
      ...Array.from({ length: 12 }, (_, i) => `Calculus Volume ${i}`),
      ...Array.from({ length: 12 }, (_, i) => `Precalculus Volume ${i}`),
    ];
    // Alternating dates, so the best matches are not simply the newest.
    await insertListings(
      t,
      seller.id,
      names.map((name, i) => ({ name, createdAt: minutesAgo(i % 2 ? i : 100 - i) })),
    );
  });
  afterAll(() => t.close());

  const found = async (query: string): Promise<Listing[]> => {
    const res = await t.app.inject(`/api/listing/get?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const names = async (query: string) => (await found(query)).map((l) => l.name);

  it('finds words in any order and with a typo in each', async () => {
    expect(await names('searchTerm=chemistry%20organic')).toEqual(['Organic Chemistry']);
    expect(await names('searchTerm=orgnic%20chemstry')).toEqual(['Organic Chemistry']);
    expect(await names('searchTerm=organic%20physics')).toEqual([]);
    expect(await names('searchTerm=zzqqxx')).toEqual([]);
  });

  it('finds a typo in a listing name from the right spelling, after the whole-word matches', async () => {
    const all = await names('searchTerm=calculus&limit=50');
    expect(all).toHaveLength(25);
    expect(all.slice(0, 12).every((n) => n.startsWith('Calculus Volume'))).toBe(true);
    expect(all.slice(12)).toContain('Calclus Made Easy');
    expect(all.slice(12).filter((n) => n.startsWith('Precalculus'))).toHaveLength(12);
  });

  it("lists a misspelled term's matches newest first, the misspelling itself among them", async () => {
    const hits = await found('searchTerm=calclus&limit=50');
    // 'calclus' resembles 'calculus' (similarity 0.55), not 'precalculus' (0.25).
    expect(hits.map((l) => l.name).sort()).toEqual(
      ['Calclus Made Easy', ...Array.from({ length: 12 }, (_, i) => `Calculus Volume ${i}`)].sort(),
    );
    const dates = hits.map((l) => l.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('finds words from their beginning or middle ("calc", "culus")', async () => {
    expect(await found('searchTerm=calc&limit=50')).toHaveLength(25);
    expect(await found('searchTerm=culus&limit=50')).toHaveLength(24);
  });

  it('pages through best and other matches without overlap or gaps, at any page size', async () => {
    const whole = (await found('searchTerm=calculus&limit=50')).map((l) => l._id);
    for (const limit of [1, 4, 5, 9, 12, 13]) {
      const paged: string[] = [];
      for (let startIndex = 0; startIndex < 30; startIndex += limit) {
        const page = await found(`searchTerm=calculus&limit=${limit}&startIndex=${startIndex}`);
        expect(page.length).toBeLessThanOrEqual(limit);
        paged.push(...page.map((l) => l._id));
      }
      expect(paged, `limit ${limit}`).toEqual(whole);
    }
    expect(await found('searchTerm=calculus&startIndex=25')).toEqual([]);
    expect(await found('searchTerm=calculus&startIndex=400')).toEqual([]);
  });
});
