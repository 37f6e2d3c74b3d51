import { TOTAL_COUNT_HEADER } from '@campus-books/common/constants';
import { describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { routeCaller } from '../../../test/api-caller';
import { TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { createListingAs } from '../../../test/listing-fixtures';
import { staleReadsAfterRenames, twoAppServersForSuite } from '../../../test/shared-database';

/**
 * Two app servers on one database, each with its own caches: a write acknowledged by one shows in
 * the very next search on the other, though that search was answered (and cached) just before.
 */
const letters = 'abcdefghijklmnopqrstuvwxyz';

describe(`search on another server right after a write (${TEST_ENGINE})`, () => {
  const servers = twoAppServersForSuite();

  /** A search on one of the two servers. */
  const searchOn = (t: TestApp, searchTerm: string, startIndex?: number) =>
    routeCaller(() => t)('GET /api/listing/get', { query: { searchTerm, startIndex } });
  const namesOn = async (t: TestApp, term: string) => {
    const res = await searchOn(t, term);
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    return dataOf(res).map((l) => l.name);
  };

  it('200 renames through A, each searched at once through B: none stale', async () => {
    const { a, b, seller } = servers;
    const listing = await createListingAs(a, seller, { name: 'Organic Chemistry' });
    // Each name ends in a word unlike the previous ones (no typo match): 10 random letters.
    const stale = await staleReadsAfterRenames(servers, listing, {
      count: 200,
      name: () =>
        `Organic Chemistry ${Array.from({ length: 10 }, () => letters[Math.floor(Math.random() * 26)]).join('')}`,
      readOnB: (name) => namesOn(b, name.split(' ').at(-1)!),
      // B answers (and keeps) that nothing holds the word yet.
      before: (names) => expect(names).toEqual([]),
    });
    expect(stale).toBe(0);
    // 400 requests and 200 writes one after another: ~15 s alone, twice that on a busy machine.
  }, 120_000);

  it('counts a listing created through A in the total of a search B has just counted', async () => {
    const { a, b, seller } = servers;
    const word = Array.from({ length: 10 }, () => letters[Math.floor(Math.random() * 26)]).join('');
    const totalOn = async (t: TestApp, startIndex = 0) => {
      const res = await searchOn(t, word, startIndex);
      expect(res.status, res.ok ? '' : res.text).toBe(200);
      return Number(res.headers.get(TOTAL_COUNT_HEADER));
    };
    expect(await totalOn(b)).toBe(0);
    for (let created = 1; created <= 3; created += 1) {
      await createListingAs(a, seller, { name: `Physical Chemistry ${word}` });
      // B counted (and kept) the total just before; A acknowledged the write: B counts it now,
      // on the first page and past it.
      expect(await totalOn(b)).toBe(created);
      expect(await totalOn(b, 9)).toBe(created);
    }
  });
});
