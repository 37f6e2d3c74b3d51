import { describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { routeCaller } from '../../../test/api-caller';
import { createUser, TEST_ENGINE, type TestApp, type TestUser } from '../../../test/helpers';
import { createListingAs } from '../../../test/listing-fixtures';
import { staleReadsAfterRenames, twoAppServersForSuite } from '../../../test/shared-database';

/**
 * GET /api/my-courses/books is kept in memory (course-books-cache.ts): two app servers on one
 * database, each with its own copy. A listing written through either is in the very next answer of
 * both, though each had just answered (and kept) the same courses without it.
 */
describe(`the courses' books kept in memory, on two app servers (${TEST_ENGINE})`, () => {
  const servers = twoAppServersForSuite();

  const titlesOn = async (t: TestApp, courses: string, who?: TestUser) => {
    const res = await routeCaller(() => t)('GET /api/my-courses/books', {
      as: who,
      query: { courses },
    });
    expect(res.status, res.ok ? '' : res.text).toBe(200);
    return dataOf(res).courses.flatMap((c) => c.books.map((k) => k.title));
  };

  it('a listing created through one server is in the next answer of both; 100 renames, none stale', async () => {
    const { a, b, seller } = servers;
    const courses = 'HIST-230,PHIL-101';
    expect(await titlesOn(a, courses)).toEqual([]);
    expect(await titlesOn(b, courses)).toEqual([]);
    const listing = await createListingAs(a, seller, {
      name: 'A People and a Nation',
      subject: 'HIST',
      courseNumber: '230',
    });
    expect(await titlesOn(a, courses)).toEqual(['A People and a Nation']);
    expect(await titlesOn(b, courses)).toEqual(['A People and a Nation']);

    const stale = await staleReadsAfterRenames(servers, listing, {
      count: 100,
      name: (edition) => `A People and a Nation, edition ${edition}`,
      course: { subject: 'HIST', courseNumber: '230' },
      readOnB: () => titlesOn(b, courses),
    });
    expect(stale).toBe(0);
  });

  it('many students asking at once share one answer, and a student sees what a visitor sees', async () => {
    const { b, seller } = servers;
    const student = await createUser(b);
    await createListingAs(b, seller, {
      name: 'Sophie’s World',
      subject: 'PHIL',
      courseNumber: '101',
    });
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => titlesOn(b, 'PHIL-101', i % 2 ? student : undefined)),
    );
    expect(new Set(answers.map((titles) => titles.join()))).toEqual(new Set(['Sophie’s World']));
  });
});
