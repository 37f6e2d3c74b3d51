import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCampus } from '@campus-books/common/active-campus';
import type { CourseAnswer } from '@campus-books/common/book.schemas';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { campusValues as campus } from '../../../test/campus-values';
import { insertListings } from '../../../test/listing-fixtures';

const CLRS = '9780262033848';
/** The test campus's subjects: the course under test, another, the priced one, an empty one. */
const CS = () => campus.subject(0);
const OTHER = () => campus.subject(1);
const PRICED = () => campus.subject(2);
const EMPTY = () => campus.subject(3);

describe(`GET /api/course/{code} (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    await insertListings(t, seller.id, [
      {
        name: 'Introduction to Algorithms',
        isbn: CLRS,
        subject: CS(),
        courseNumber: '315',
        regularPrice: 60,
        edition: '3rd',
      },
      {
        name: 'CLRS (some notes inside)',
        isbn: CLRS,
        subject: CS(),
        courseNumber: '315',
        regularPrice: 45,
      },
      {
        name: 'Intro to Algorithms',
        isbn: CLRS,
        subject: CS(),
        courseNumber: '315',
        regularPrice: 80,
        status: 'sold',
      },
      { name: 'Algorithm Design', subject: CS(), courseNumber: '315', regularPrice: 50 },
      { name: 'algorithm  design!', subject: CS(), courseNumber: '315', regularPrice: 35 },
      { name: 'The Art of Programming', subject: CS(), courseNumber: '315', regularPrice: 90 },
      { name: 'Algorithms in C', subject: OTHER(), courseNumber: '315', regularPrice: 10 },
      { name: 'Old Algorithms Reader', courseNumber: '315', regularPrice: 12 },
    ]);
  });
  afterAll(() => t.close());

  const course = async (code: string): Promise<CourseAnswer> => {
    const res = await t.app.inject(`/api/course/${code}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it("groups the course's active listings by book: ISBN, else normalised title", async () => {
    const answer = await course(`${CS()}-315`);
    expect(answer).toMatchObject({
      subject: CS(),
      subjectName: activeCampus().subjectName(CS()),
      courseNumber: '315',
      label: `${CS()} 315`,
    });
    expect(
      answer.books.map(({ isbn, copies, lowestPrice, highestPrice, edition }) => ({
        isbn,
        copies,
        lowestPrice,
        highestPrice,
        edition,
      })),
    ).toEqual([
      { isbn: null, copies: 2, lowestPrice: 35, highestPrice: 50, edition: null },
      { isbn: CLRS, copies: 2, lowestPrice: 45, highestPrice: 60, edition: '3rd' },
      { isbn: null, copies: 1, lowestPrice: 90, highestPrice: 90, edition: null },
    ]);
    expect(answer.books[1]!.listingIds).toHaveLength(2);
  });

  it.each([
    ['lower case, run together', (code: string) => `${code.toLowerCase()}315`],
    ['with a space', (code: string) => `${code}%20315`],
    ['mixed case, underscore', (code: string) => `${code[0]}${code.slice(1).toLowerCase()}_315`],
  ])('reads the code written %s too', async (_how, spelling) => {
    expect((await course(spelling(CS()))).label).toBe(`${CS()} 315`);
  });

  it('answers the listings without a subject at /course/{number}', async () => {
    const answer = await course('315');
    expect(answer).toMatchObject({ subject: null, label: '315' });
    expect(answer.books.map((b) => b.title)).toEqual(['Old Algorithms Reader']);
  });

  it('gives the price hint of a title in a course: active range, sold median from 3 sales', async () => {
    const seller = await createUser(t);
    await insertListings(t, seller.id, [
      {
        name: 'Microeconomics',
        subject: PRICED(),
        courseNumber: '101',
        regularPrice: 30,
        status: 'sold',
      },
      {
        name: 'microeconomics!',
        subject: PRICED(),
        courseNumber: '101',
        regularPrice: 50,
        status: 'sold',
      },
      { name: 'Microeconomics', subject: PRICED(), courseNumber: '101', regularPrice: 25 },
      { name: 'Microeconomics', subject: PRICED(), courseNumber: '102', regularPrice: 99 },
    ]);
    const prices = async (query: string) => {
      const res = await t.app.inject(`/api/course/${PRICED()}-101/prices?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect(await prices('title=MICROECONOMICS')).toEqual({
      success: true,
      active: { count: 1, min: 25, max: 25 },
      sold: { count: 2, median: null },
    });
    await insertListings(t, seller.id, [
      {
        name: 'Micro-economics',
        subject: PRICED(),
        courseNumber: '101',
        regularPrice: 36,
        status: 'sold',
      },
      {
        name: 'Microeconomics',
        subject: PRICED(),
        courseNumber: '101',
        regularPrice: 40,
        status: 'sold',
      },
    ]);
    // 'Micro-economics' is another title; the sold ones are 30, 40, 50.
    expect((await prices('title=microeconomics')).sold).toEqual({ count: 3, median: 40 });
    expect((await t.app.inject(`/api/course/${PRICED()}-101/prices`)).statusCode).toBe(400);
  });

  it('answers an empty course with no books', async () => {
    expect((await course(`${EMPTY()}-101`)).books).toEqual([]);
  });

  it.each([
    ['an unknown subject', 'QUID-101', /subject/],
    ['no course at all', 'calculus', /is not a course: use a subject and number/],
  ])('refuses %s with a 400', async (_what, code, message) => {
    const res = await t.app.inject(`/api/course/${code}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, statusCode: 400 });
    expect(res.json().message).toMatch(message);
  });
});
