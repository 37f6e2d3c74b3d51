import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CourseAnswer } from '@campus-books/common/book.schemas';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { insertListings } from '../../../test/listing-fixtures';

const CLRS = '9780262033848';

describe(`GET /api/course/{code} (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    await insertListings(t, seller.id, [
      {
        name: 'Introduction to Algorithms',
        isbn: CLRS,
        subject: 'CMSC',
        courseNumber: '315',
        regularPrice: 60,
        edition: '3rd',
      },
      {
        name: 'CLRS (some notes inside)',
        isbn: CLRS,
        subject: 'CMSC',
        courseNumber: '315',
        regularPrice: 45,
      },
      {
        name: 'Intro to Algorithms',
        isbn: CLRS,
        subject: 'CMSC',
        courseNumber: '315',
        regularPrice: 80,
        status: 'sold',
      },
      { name: 'Algorithm Design', subject: 'CMSC', courseNumber: '315', regularPrice: 50 },
      { name: 'algorithm  design!', subject: 'CMSC', courseNumber: '315', regularPrice: 35 },
      { name: 'The Art of Programming', subject: 'CMSC', courseNumber: '315', regularPrice: 90 },
      { name: 'Algorithms in C', subject: 'MATH', courseNumber: '315', regularPrice: 10 },
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
    const answer = await course('CMSC-315');
    expect(answer).toMatchObject({
      subject: 'CMSC',
      subjectName: 'Computer Science',
      courseNumber: '315',
      label: 'CMSC 315',
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

  it.each(['cmsc315', 'CMSC%20315', 'Cmsc_315'])('reads the code %s too', async (code) => {
    expect((await course(code)).label).toBe('CMSC 315');
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
        subject: 'ECON',
        courseNumber: '101',
        regularPrice: 30,
        status: 'sold',
      },
      {
        name: 'microeconomics!',
        subject: 'ECON',
        courseNumber: '101',
        regularPrice: 50,
        status: 'sold',
      },
      { name: 'Microeconomics', subject: 'ECON', courseNumber: '101', regularPrice: 25 },
      { name: 'Microeconomics', subject: 'ECON', courseNumber: '102', regularPrice: 99 },
    ]);
    const prices = async (query: string) => {
      const res = await t.app.inject(`/api/course/ECON-101/prices?${query}`);
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
        subject: 'ECON',
        courseNumber: '101',
        regularPrice: 36,
        status: 'sold',
      },
      {
        name: 'Microeconomics',
        subject: 'ECON',
        courseNumber: '101',
        regularPrice: 40,
        status: 'sold',
      },
    ]);
    // 'Micro-economics' is another title; the sold ones are 30, 40, 50.
    expect((await prices('title=microeconomics')).sold).toEqual({ count: 3, median: 40 });
    expect((await t.app.inject('/api/course/ECON-101/prices')).statusCode).toBe(400);
  });

  it('answers an empty course with no books', async () => {
    expect((await course('PHYS-101')).books).toEqual([]);
  });

  it.each([
    ['an unknown subject', 'QUID-101', /subject/],
    ['no course at all', 'calculus', /ECON-101/],
  ])('refuses %s with a 400', async (_what, code, message) => {
    const res = await t.app.inject(`/api/course/${code}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, statusCode: 400 });
    expect(res.json().message).toMatch(message);
  });
});
