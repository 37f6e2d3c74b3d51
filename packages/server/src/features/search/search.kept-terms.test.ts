import { eq, sql } from 'drizzle-orm';
import { dataOf } from '@campus-books/common/call-route';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeCaller } from '../../../test/api-caller';
import { createUser, TEST_ENGINE, type TestApp, type TestUser } from '../../../test/helpers';
import { createListingAs, insertListings } from '../../../test/listing-fixtures';
import { createAppOn, openSharedDatabase } from '../../../test/shared-database';
import { rowsOf } from '../../db/rows';
import { listings } from '../../db/schema';

// What a term resolves to in the vocabulary is kept across the new listings that bring no new
// word (most of a term's first morning), and resolved again when a word joins or leaves the
// vocabulary: the words version (migration 0033) moves then, and each page's rows read it. Two
// app servers on one database: the one that searches never hears of the other's write but
// through what its own statements read.
describe(`a term's words, kept while the vocabulary stands (${TEST_ENGINE})`, () => {
  let shared: Awaited<ReturnType<typeof openSharedDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let seller: TestUser;

  beforeAll(async () => {
    shared = await openSharedDatabase();
    a = await createAppOn(shared.first);
    b = await createAppOn(shared.second);
    seller = await createUser(a);
    await insertListings(a, seller.id, [
      { name: 'Organic Chemistry' },
      { name: 'Biochemistry Basics' },
      { name: 'World History' },
    ]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.close();
  });

  const onB = routeCaller(() => b);
  /** Server B's answer: the listings' names. */
  const searchOnB = async (searchTerm: string) => {
    const res = await onB('GET /api/listing/get', { query: { searchTerm } });
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    return dataOf(res)
      .map((listing) => listing.name)
      .sort();
  };
  const kept = (term: string) => b.app.listingCaches.terms.peek(term);
  const wordsVersion = async () => {
    const [row] = await rowsOf<{ v: number }>(
      a.database.db,
      sql`SELECT words_version::int AS v FROM catalogue_version WHERE id = 1`,
    );
    return row!.v;
  };

  it('moves the words version only when a word joins or leaves the vocabulary', async () => {
    const before = await wordsVersion();
    await insertListings(a, seller.id, [{ name: 'World History' }]);
    expect(await wordsVersion()).toBe(before);
    const [id] = await insertListings(a, seller.id, [{ name: 'Thermodynamics Primer' }]);
    expect(await wordsVersion()).toBe(before + 1);
    // Sold: still in the vocabulary (the names of sold listings are words too).
    await a.database.db.update(listings).set({ status: 'sold' }).where(eq(listings.id, id!));
    expect(await wordsVersion()).toBe(before + 1);
    // Renamed to words already there: 'thermodynamics' and 'primer' leave.
    await a.database.db.update(listings).set({ name: 'World History' }).where(eq(listings.id, id!));
    expect(await wordsVersion()).toBe(before + 2);
    await a.database.db.delete(listings).where(eq(listings.id, id!));
    expect(await wordsVersion()).toBe(before + 2);
  });

  it('keeps the words across a new listing that brings no new word', async () => {
    expect(await searchOnB('chemistry')).toEqual(['Biochemistry Basics', 'Organic Chemistry']);
    const resolution = kept('chemistry');
    expect(resolution?.words[0]?.others).toEqual(['biochemistry']);

    await createListingAs(a, seller, { name: 'Organic Chemistry' });
    expect(await searchOnB('chemistry')).toEqual([
      'Biochemistry Basics',
      'Organic Chemistry',
      'Organic Chemistry',
    ]);
    // The same resolution: the vocabulary was not read again.
    expect(kept('chemistry')).toBe(resolution);
  });

  it('resolves the term again once a new word would match it', async () => {
    expect(await searchOnB('chem')).toEqual([
      'Biochemistry Basics',
      'Organic Chemistry',
      'Organic Chemistry',
    ]);
    const resolution = kept('chem');

    await createListingAs(a, seller, { name: 'Chemometrics Handbook' });
    expect(await searchOnB('chem')).toEqual([
      'Biochemistry Basics',
      'Chemometrics Handbook',
      'Organic Chemistry',
      'Organic Chemistry',
    ]);
    expect(kept('chem')).not.toBe(resolution);
    expect(kept('chem')?.words[0]?.others).toContain('chemometrics');
  });

  it('checks a kept term that found nothing before answering nothing again', async () => {
    expect(await searchOnB('zyxwvut')).toEqual([]);
    expect(kept('zyxwvut')).toBeDefined();

    await insertListings(a, seller.id, [{ name: 'Zyxwvut Field Guide' }]);
    expect(await searchOnB('zyxwvut')).toEqual(['Zyxwvut Field Guide']);
  });
});
