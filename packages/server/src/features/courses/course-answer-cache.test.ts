import { describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { routeCaller } from '../../../test/api-caller';
import { TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { createListingAs } from '../../../test/listing-fixtures';
import { staleReadsAfterRenames, twoAppServersForSuite } from '../../../test/shared-database';

/**
 * GET /api/course/{code} is kept in memory until the catalogue changes (courses.routes.ts): two app
 * servers on one database, each with its own copy. A listing written through either is in the very
 * next answer of both, though each had just answered (and kept) the course without it.
 */
describe(`a course's answer kept in memory, on two app servers (${TEST_ENGINE})`, () => {
  const servers = twoAppServersForSuite();

  const titlesOn = async (t: TestApp, code: string) => {
    const res = await routeCaller(() => t)('GET /api/course/:code', { params: { code } });
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    return dataOf(res).books.map((book) => book.title);
  };

  it('a listing created through one server is in the next answer of both; 100 renames, none stale', async () => {
    const { a, b, seller } = servers;
    expect(await titlesOn(a, 'ECON-101')).toEqual([]);
    expect(await titlesOn(b, 'ECON-101')).toEqual([]);
    const listing = await createListingAs(a, seller, {
      name: 'Principles of Economics',
      subject: 'ECON',
      courseNumber: '101',
    });
    expect(await titlesOn(a, 'ECON-101')).toEqual(['Principles of Economics']);
    expect(await titlesOn(b, 'ECON-101')).toEqual(['Principles of Economics']);

    const stale = await staleReadsAfterRenames(servers, listing, {
      count: 100,
      name: (edition) => `Principles of Economics, edition ${edition}`,
      course: { subject: 'ECON', courseNumber: '101' },
      readOnB: () => titlesOn(b, 'ECON-101'),
    });
    expect(stale).toBe(0);
  });

  it('25 visitors at once get one answer, with the listing', async () => {
    const { b, seller } = servers;
    await createListingAs(b, seller, { name: 'Calculus', subject: 'MATH', courseNumber: '211' });
    const answers = await Promise.all(Array.from({ length: 25 }, () => titlesOn(b, 'MATH-211')));
    expect(new Set(answers.map((titles) => titles.join()))).toEqual(new Set(['Calculus']));
  });
});
