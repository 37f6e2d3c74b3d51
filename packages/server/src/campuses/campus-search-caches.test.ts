import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { TOTAL_COUNT_CAPPED_HEADER } from '@campus-books/common/constants';
import { TEST_ENGINE } from '../../test/helpers';
import { openTwoCampuses, type CampusKey, type TwoCampuses } from '../../test/two-campuses';
import { SEARCH_COUNT_CAP } from '../features/search/statements';

// What the search keeps across a campus's writes (decision 024, decision 006): a total at the cap
// and what a term resolves to, each campus's own and checked against its own catalogue's versions,
// on PostgreSQL.
describe.skipIf(TEST_ENGINE !== 'postgres')("the search's kept totals and terms per campus", () => {
  let two: TwoCampuses;
  let admin: pg.Client;

  beforeAll(async () => {
    two = await openTwoCampuses();
    ({ admin } = two);
  });
  afterAll(async () => {
    await two?.close();
  });

  /** A statement as the campus writes (its triggers keep its own vocabulary, found by the search path). */
  const asCampus = async (key: CampusKey, text: string, values: unknown[] = []) => {
    await admin.query('BEGIN');
    try {
      await admin.query(`SET LOCAL search_path TO campus_${key}, public`);
      await admin.query(text, values);
      await admin.query('COMMIT');
    } catch (error) {
      await admin.query('ROLLBACK');
      throw error;
    }
  };

  it("keeps a campus's total at the cap for that campus only, and counts it again after its own sale", async () => {
    const total = async (key: CampusKey) => {
      const answer = await two.call(key, 'GET /api/listing/get', {
        query: { searchTerm: 'thermodynamics' },
      });
      return {
        total: Number(answer.headers.get('x-total-count')),
        capped: answer.headers.get(TOTAL_COUNT_CAPPED_HEADER) === 'true',
      };
    };
    // Alpha: more matches than the cap; beta: three.
    const insert = (key: CampusKey, n: number) =>
      asCampus(
        key,
        `INSERT INTO listings (name, course_number, condition, regular_price)
         SELECT 'Thermodynamics volume ' || i, '101', 'good', 10 FROM generate_series(1, $1) AS i`,
        [n],
      );
    const sell = (key: CampusKey, n: number) =>
      asCampus(
        key,
        `UPDATE listings SET status = 'sold' WHERE id IN
           (SELECT id FROM listings WHERE name LIKE 'Thermodynamics%' AND status = 'active' LIMIT $1)`,
        [n],
      );
    await insert('alpha', SEARCH_COUNT_CAP + 5);
    await insert('beta', 3);
    expect(await total('alpha')).toEqual({ total: SEARCH_COUNT_CAP, capped: true });
    expect(await total('beta')).toEqual({ total: 3, capped: false });
    // New listings on each: alpha's total stays at the cap (kept), beta's is counted again.
    await insert('alpha', 1);
    await insert('beta', 1);
    expect(await total('alpha')).toEqual({ total: SEARCH_COUNT_CAP, capped: true });
    expect(await total('beta')).toEqual({ total: 4, capped: false });
    // A sale on beta moves beta's shrink version only; one of 10 on alpha takes it under the cap.
    await sell('beta', 1);
    expect(await total('beta')).toEqual({ total: 3, capped: false });
    expect(await total('alpha')).toEqual({ total: SEARCH_COUNT_CAP, capped: true });
    await sell('alpha', 10);
    expect(await total('alpha')).toEqual({ total: SEARCH_COUNT_CAP - 4, capped: false });
  });

  it("keeps each campus's words of a term apart, and resolves a campus's term again when its own vocabulary grows", async () => {
    /** The names a search for `chem` finds through the words this test adds (all start 'Chemo'). */
    const found = async (key: CampusKey) => {
      const answer = await two.call(key, 'GET /api/listing/get', { query: { searchTerm: 'chem' } });
      return dataOf(answer)
        .map((l) => l.name)
        .filter((name) => name.startsWith('Chemo'))
        .sort();
    };
    const insert = (key: CampusKey, name: string) =>
      asCampus(
        key,
        `INSERT INTO listings (name, course_number, condition, regular_price)
         VALUES ($1, '101', 'good', 10)`,
        [name],
      );
    await insert('alpha', 'Chemometrics Workbook');
    // Alpha's words for 'chem' are kept for alpha: beta, asked after a word only it has, finds it.
    expect(await found('alpha')).toEqual(['Chemometrics Workbook']);
    await insert('beta', 'Chemokine Biology');
    expect(await found('beta')).toEqual(['Chemokine Biology']);
    // A new word on beta moves beta's words version: its kept words are read again, alpha's stay.
    await insert('beta', 'Chemotaxis Primer');
    expect(await found('beta')).toEqual(['Chemokine Biology', 'Chemotaxis Primer']);
    expect(await found('alpha')).toEqual(['Chemometrics Workbook']);
  });
});
