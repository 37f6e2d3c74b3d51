import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, errorOf, type ApiCallOptions } from '@campus-books/common/call-route';
import { routeCaller } from '../../../test/api-caller';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { insertListings } from '../../../test/listing-fixtures';

const minutesAgo = (n: number) => new Date(Date.UTC(2026, 0, 1) - n * 60_000);
const CLRS = '9780262033848';

describe(`GET /api/listing/get: ISBN, course code and subject (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    await insertListings(
      t,
      seller.id,
      [
        { name: 'Introduction to Algorithms', isbn: CLRS, subject: 'CMSC', courseNumber: '315' },
        { name: 'Algorithms (used)', isbn: CLRS, courseNumber: '315', status: 'sold' },
        { name: 'Algorithms Unlocked', courseNumber: '315', subject: 'CMSC' },
        { name: 'Principles of Economics', subject: 'ECON', courseNumber: '101' },
        { name: 'Econ 101 Study Guide', courseNumber: '101' },
        { name: 'Intro Microeconomics', subject: 'ECON', courseNumber: '102' },
        { name: 'Calculus', subject: 'MATH', courseNumber: '101' },
        // A name holding the ISBN's digits matches too, after the exact ISBN
        { name: `Reader ${CLRS}`, courseNumber: '999' },
      ].map((row, i) => ({ ...row, createdAt: minutesAgo(100 - i) })) as never,
    );
  });
  afterAll(() => t.close());

  const route = routeCaller(() => t);
  const search = (query: ApiCallOptions<'GET /api/listing/get'>['query']) =>
    route('GET /api/listing/get', { query });
  const names = async (query: ApiCallOptions<'GET /api/listing/get'>['query']) => {
    const res = await search(query);
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    return dataOf(res).map((l) => l.name);
  };

  it.each([CLRS, '978-0-262-03384-8', '978 0 262 03384 8', '0262033844', '0-262-03384-4'])(
    'finds an ISBN typed as %s exactly, best match first',
    async (searchTerm) => {
      const hits = await names({ searchTerm });
      expect(hits[0]).toBe('Introduction to Algorithms');
      expect(hits).not.toContain('Algorithms (used)');
      expect(hits).not.toContain('Algorithms Unlocked');
    },
  );

  it('finds nothing for an ISBN no listing has', async () => {
    expect(await names({ searchTerm: '0-8044-2957-X' })).toEqual([]);
  });

  it.each(['ECON 101', 'econ101', 'ECON-101', 'Econ  101'])(
    'finds the course %s by its code, that course first',
    async (searchTerm) => {
      const hits = await names({ searchTerm });
      expect(hits[0]).toBe('Principles of Economics');
      expect(hits).not.toContain('Calculus');
      expect(hits).not.toContain('Intro Microeconomics');
    },
  );

  it('filters by subject, in any case, and with a course number', async () => {
    expect(await names({ subject: 'ECON' })).toEqual([
      'Intro Microeconomics',
      'Principles of Economics',
    ]);
    expect(await names({ subject: 'econ', courseNumber: '101' })).toEqual([
      'Principles of Economics',
    ]);
    expect(await names({ subject: 'CMSC', searchTerm: 'algorithms' })).toEqual([
      'Algorithms Unlocked',
      'Introduction to Algorithms',
    ]);
  });

  it('refuses an unknown subject with a 400', async () => {
    const res = await search({ subject: 'NOPE' });
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toMatch(/subject/);
  });
});
