import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listing } from '@campus-books/common/listing.schemas';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { insertListings } from '../../../test/listing-fixtures';

// A search's statements are built once per shape and filled with each search's values
// (search/shapes.ts, search/statements.ts): searches of one shape with other values must never get each other's answer.
describe(`searches of one shape, each with its own values (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    const majors = ['Mathematics', 'Chemistry', 'History'];
    const conditions = ['mint', 'good', 'poor'] as const;
    await insertListings(
      t,
      seller.id,
      [
        ['Calculus', 'MATH', '211'],
        ['Organic Chemistry', 'CHEM', '205'],
        ['World History', 'HIST', '101'],
      ].flatMap(([name, subject, courseNumber], i) =>
        [0, 1, 2].map((j) => ({
          name: `${name} volume ${j + 1}`,
          subject,
          courseNumber,
          major: majors[i],
          condition: conditions[j],
          regularPrice: 10 * (j + 1),
          schools: j === 0 ? ['Bschool'] : ['Jepson'],
        })),
      ),
    );
  });
  afterAll(() => t.close());

  // Raw query strings: some shapes use the original API's school flags (`Bschool=true`), which the
  // search folds into `schools` (foldSchoolParams) but the route table's query schema does not name.
  const search = async (query: string) => {
    const res = await t.app.inject(`/api/listing/get?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return { listings: res.json<Listing[]>(), total: Number(res.headers['x-total-count']) };
  };

  it('answers 25 searches of a few shapes at once, each for its own values', async () => {
    const cases: [string, (l: Listing) => boolean][] = [
      ['major=Mathematics', (l) => l.major === 'Mathematics'],
      ['major=History', (l) => l.major === 'History'],
      ['major=Chemistry&condition=poor', (l) => l.major === 'Chemistry' && l.condition === 'poor'],
      ['major=History&condition=mint', (l) => l.major === 'History' && l.condition === 'mint'],
      ['searchTerm=calculus', (l) => l.name.startsWith('Calculus')],
      ['searchTerm=history', (l) => l.name.startsWith('World History')],
      ['searchTerm=chemistry', (l) => l.name.startsWith('Organic Chemistry')],
      ['searchTerm=MATH%20211', (l) => l.subject === 'MATH'],
      ['searchTerm=HIST%20101', (l) => l.subject === 'HIST'],
      ['Bschool=true&maxPrice=10', (l) => l.schools.includes('Bschool') && l.regularPrice <= 10],
      ['schools=Jepson&maxPrice=20', (l) => l.schools.includes('Jepson') && l.regularPrice <= 20],
      ['Jepson=true&maxPrice=30', (l) => l.Jepson === true],
      ['subject=CHEM&courseNumber=205', (l) => l.subject === 'CHEM'],
      ['subject=MATH&courseNumber=211', (l) => l.subject === 'MATH'],
    ];
    const expected = new Map<string, number>();
    for (const [query, matches] of cases) {
      const all = (await search(`${query}&limit=50`)).listings;
      expect(all.length, query).toBeGreaterThan(0);
      expect(all.every(matches), query).toBe(true);
      expect(all.length, query).toBe(
        (await search('limit=50')).listings.filter((l) => matches(l)).length,
      );
      expected.set(query, all.length);
    }
    // Mixed and at once, first and later pages of each, so every shape's statement is shared.
    const requests = Array.from({ length: 25 }, (_, i) => {
      const [query, matches] = cases[i % cases.length]!;
      const startIndex = i % 2;
      return {
        query: `${query}&limit=2&startIndex=${startIndex}`,
        matches,
        whole: query,
        startIndex,
      };
    });
    const answers = await Promise.all(requests.map((r) => search(r.query)));
    answers.forEach((answer, i) => {
      const { query, matches, whole, startIndex } = requests[i]!;
      expect(answer.total, query).toBe(expected.get(whole));
      expect(answer.listings.every(matches), query).toBe(true);
      expect(answer.listings.length, query).toBe(
        Math.max(0, Math.min(2, expected.get(whole)! - startIndex)),
      );
    });
  });
});
