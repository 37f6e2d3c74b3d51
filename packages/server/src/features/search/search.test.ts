import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listing } from '@campus-books/common/listing.schemas';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { insertListings } from '../../../test/listing-fixtures';
import { campusValues as campus } from '../../../test/campus-values';

const minutesAgo = (n: number) => new Date(Date.UTC(2026, 0, 1) - n * 60_000);

/**
 * The catalogue the searches run on; later rows are newer. Its schools, majors and subjects are the
 * test campus's (the first three schools, the first five majors, the first two subjects).
 */
const books = () => {
  const [s0, s1, s2] = [campus.school(0).key, campus.school(1).key, campus.school(2).key];
  const m = (i: number) => campus.major(i).value;
  const [m0, m1, m2, m3, m4] = [m(0), m(1), m(2), m(3), m(4)];
  return [
    {
      name: 'Calculus: Early Transcendentals',
      condition: 'good',
      regularPrice: 40,
      schools: [s0],
      major: m0,
      subject: campus.subject(0),
      courseNumber: '211',
    },
    {
      name: 'Calculus II Workbook',
      condition: 'excellent',
      regularPrice: 25,
      schools: [s0, s1],
      major: m0,
      subject: campus.subject(0),
      courseNumber: '212',
    },
    { name: 'Precalculus', condition: 'poor', regularPrice: 10, major: m0, type: 'rent' },
    {
      name: 'Principles of Microeconomics',
      condition: 'mint',
      regularPrice: 80,
      schools: [s1],
      major: m1,
      subject: campus.subject(1),
      courseNumber: '201',
    },
    {
      name: 'Leadership Theory',
      regularPrice: 55,
      schools: [s2],
      major: m2,
      courseNumber: '300',
    },
    {
      name: 'Organic Chemistry',
      regularPrice: 120,
      schools: [s0],
      major: m3,
      subject: campus.subject(0),
      status: 'sold',
    },
    { name: '100% Cotton Fiber Art', regularPrice: 15, major: m4 },
    {
      name: 'snake_case Programming',
      regularPrice: 30,
      major: m2,
      courseNumber: '150',
    },
    {
      name: 'Constitutional Law',
      condition: 'excellent',
      regularPrice: 95,
      schools: [s1, s2],
      major: m3,
      courseNumber: '400',
    },
  ] as const;
};
/** 20 identical-looking listings created at the same instant: paging must still never overlap. */
const PAGED = 20;

describe(`GET /api/listing/get: search (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    await insertListings(
      t,
      seller.id,
      books().map((b, i) => ({
        ...b,
        schools: [...('schools' in b ? b.schools : [])],
        createdAt: minutesAgo(100 - i),
      })),
    );
    await insertListings(
      t,
      seller.id,
      Array.from({ length: PAGED }, (_, i) => ({
        name: `Paged Reader ${i}`,
        courseNumber: '999',
        regularPrice: 5,
        createdAt: minutesAgo(500),
      })),
    );
  });
  afterAll(() => t.close());

  const search = (query: string) => t.app.inject(`/api/listing/get?${query}`);
  const found = async (query: string): Promise<Listing[]> => {
    const res = await search(query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const names = async (query: string) => (await found(query)).map((l) => l.name);
  const ACTIVE = books().filter((b) => !('status' in b)).length + PAGED;
  const school = (i: number) => campus.school(i).key;

  it('answers the newest active listings, 9 by default, as listing objects', async () => {
    const page = await found('');
    expect(page).toHaveLength(9);
    expect(page[0]).toMatchObject({
      name: 'Constitutional Law',
      status: 'active',
      schools: [school(1), school(2)],
      school: `${campus.school(1).label}, ${campus.school(2).label}`,
      [school(0)]: false,
      [school(2)]: true,
    });
    expect(page.map((l) => l.name).slice(0, 3)).toEqual([
      'Constitutional Law',
      'snake_case Programming',
      '100% Cotton Fiber Art',
    ]);
    expect(await found('status=active_or_none&limit=50')).toHaveLength(ACTIVE);
  });

  it('never shows sold listings', async () => {
    expect(await names('limit=50')).not.toContain('Organic Chemistry');
    expect(await names('searchTerm=organic&status=active')).toEqual([]);
  });

  // A query naming the campus's schools, majors or subjects is written when the test runs.
  const major = (i: number) => encodeURIComponent(campus.major(i).value);
  it.each([
    ['condition=excellent', ['Constitutional Law', 'Calculus II Workbook']],
    ['condition=mint', ['Principles of Microeconomics']],
    ['<school 3>=true', ['Constitutional Law', 'Leadership Theory']],
    ['<school 1>=true&<school 2>=true', ['Calculus II Workbook']],
    ['<school 2>=true&<school 3>=true&<school 1>=false', ['Constitutional Law']],
    ['schools=<school 2>,<school 3>', ['Constitutional Law']],
    ['schools=<school 2>&condition=mint', ['Principles of Microeconomics']],
    ['major=<major 1>', ['Precalculus', 'Calculus II Workbook', 'Calculus: Early Transcendentals']],
    ['major=<major 2>', ['Principles of Microeconomics']],
    ['subject=<subject 1>', ['Calculus II Workbook', 'Calculus: Early Transcendentals']],
    ['subject=<subject 1 lower case>&schools=<school 2>', ['Calculus II Workbook']],
    ['subject=<subject 2>', ['Principles of Microeconomics']],
    ['courseNumber=211', ['Calculus: Early Transcendentals']],
    ['type=rent', ['Precalculus']],
    ['searchTerm=LEADER', ['Leadership Theory']],
    ['searchTerm=%25', ['100% Cotton Fiber Art']],
    ['searchTerm=_', ['snake_case Programming']],
    ['searchTerm=e_c', ['snake_case Programming']],
    ['searchTerm=%5C', []],
  ])('filters by %s', async (template, expected) => {
    const query = template
      .replace(/<school (\d)>/g, (_, n: string) => school(Number(n) - 1))
      .replace(/<major (\d)>/g, (_, n: string) => major(Number(n) - 1))
      .replace(/<subject (\d) lower case>/g, (_, n: string) =>
        campus.subject(Number(n) - 1).toLowerCase(),
      )
      .replace(/<subject (\d)>/g, (_, n: string) => campus.subject(Number(n) - 1));
    expect(await names(`${query}&limit=50`)).toEqual(expected);
  });

  it('treats con-all, false flags, type all and empty fields as no filter', async () => {
    const noSchool = [0, 1, 2].map((i) => `${school(i)}=false`).join('&');
    const query = `searchTerm=&condition=con-all&${noSchool}&major=&courseNumber=&type=all&status=active_or_none&limit=50`;
    expect(await found(query)).toHaveLength(ACTIVE);
    expect(await names('type=sale&limit=50')).not.toContain('Precalculus');
    expect(await found('type=sale&limit=50')).toHaveLength(ACTIVE - 1);
  });

  it('keeps listings priced at most maxPrice (whole dollars, the regular price), with every other filter', async () => {
    const cheap = await found('maxPrice=25&limit=50&sort=regularPrice&order=desc');
    expect(cheap.map((l) => l.regularPrice)).toEqual([25, 15, 10, ...Array(PAGED).fill(5)]);
    expect(await names(`maxPrice=40&major=${major(0)}`)).toEqual([
      'Precalculus',
      'Calculus II Workbook',
      'Calculus: Early Transcendentals',
    ]);
    expect(await names('searchTerm=calculus&maxPrice=30&sort=createdAt&order=desc')).toEqual([
      'Precalculus',
      'Calculus II Workbook',
    ]);
    expect(await found('maxPrice=4')).toEqual([]);
    expect(await found('maxPrice=0')).toEqual([]);
    expect(await found('maxPrice=10000000&limit=50')).toHaveLength(ACTIVE);
    for (const bad of ['-1', '12.5', 'ten', '', '10000001', '1e3']) {
      const res = await search(`maxPrice=${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toContain("'maxPrice'");
    }
  });

  it('finds a misspelled title ("calclus" finds Calculus)', async () => {
    const hits = await names('searchTerm=calclus');
    expect(hits).toEqual(
      expect.arrayContaining(['Calculus: Early Transcendentals', 'Calculus II Workbook']),
    );
    expect(hits).not.toContain('Organic Chemistry');
    expect(await names('searchTerm=microeconmics')).toEqual(['Principles of Microeconomics']);
  });

  it('puts the best matches first unless a sort is asked for', async () => {
    expect(await names('searchTerm=calculus')).toEqual([
      'Calculus II Workbook',
      'Calculus: Early Transcendentals',
      'Precalculus',
    ]);
    // A short word counts in the best match as typed: 'Calculus II' first in either order.
    expect((await names('searchTerm=calculus%20ii'))[0]).toBe('Calculus II Workbook');
    expect((await names('searchTerm=calculus%20ii&order=asc'))[0]).toBe('Calculus II Workbook');
    expect(await names('searchTerm=calculus&sort=regularPrice&order=asc')).toEqual([
      'Precalculus',
      'Calculus II Workbook',
      'Calculus: Early Transcendentals',
    ]);
    expect(await names('searchTerm=calculus&sort=createdAt&order=asc')).toEqual([
      'Calculus: Early Transcendentals',
      'Calculus II Workbook',
      'Precalculus',
    ]);
  });

  it.each([
    [
      'sort=regularPrice&order=asc',
      (a: Listing, b: Listing) => a.regularPrice - b.regularPrice || cmp(a._id, b._id),
    ],
    [
      'sort=regularPrice&order=desc',
      (a: Listing, b: Listing) => b.regularPrice - a.regularPrice || cmp(b._id, a._id),
    ],
    [
      'sort=regularPrice',
      (a: Listing, b: Listing) => b.regularPrice - a.regularPrice || cmp(b._id, a._id),
    ],
    [
      'sort=createdAt&order=asc',
      (a: Listing, b: Listing) => cmp(a.createdAt, b.createdAt) || cmp(b._id, a._id),
    ],
    [
      'sort=createdAt&order=desc',
      (a: Listing, b: Listing) => cmp(b.createdAt, a.createdAt) || cmp(a._id, b._id),
    ],
    ['order=asc', (a: Listing, b: Listing) => cmp(a.createdAt, b.createdAt) || cmp(b._id, a._id)],
  ])('sorts by %s with a stable tiebreak', async (query, compare) => {
    const results = await found(`${query}&limit=50`);
    expect(results).toHaveLength(ACTIVE);
    expect(results.map((l) => l._id)).toEqual([...results].sort(compare).map((l) => l._id));
  });

  it('pages by startIndex in pages of 9 without overlap, and honours limit', async () => {
    const pages = [];
    for (const startIndex of [0, 9, 18]) {
      pages.push(await found(`courseNumber=999&startIndex=${startIndex}`));
    }
    expect(pages.map((p) => p.length)).toEqual([9, 9, 2]);
    const ids = pages.flat().map((l) => l._id);
    expect(new Set(ids).size).toBe(PAGED);
    expect(await found('courseNumber=999&startIndex=20')).toEqual([]);
    expect(await found('limit=4')).toHaveLength(4);
    expect(await found('courseNumber=999&startIndex=15&limit=50')).toHaveLength(5);
  });
});

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
