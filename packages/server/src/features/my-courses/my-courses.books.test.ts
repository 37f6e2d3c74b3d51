import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_ALERTS_PER_USER } from '@campus-books/common/alert.schemas';
import type { CourseBooksAnswer } from '@campus-books/common/my-courses.schemas';
import { createUser, TEST_ENGINE, type TestApp, type TestUser } from '../../../test/helpers';
import { insertListings } from '../../../test/listing-fixtures';
import { importRequiredBooks } from '../courses/required-books';
import { myCoursesSuite } from './my-courses.test-support';

const CLRS = '9780262033848';
const MANKIW = '9780357133484';
const ATKINS = '9780198769866';

describe(`/api/my-courses: the books of the courses and their alerts (${TEST_ENGINE})`, () => {
  const suite = myCoursesSuite();
  let t: TestApp;
  const { post } = suite;
  let hiddenId: string;
  beforeAll(async () => {
    t = suite.app();
    const seller = await createUser(t);
    [hiddenId] = (await insertListings(t, seller.id, [
      {
        name: 'Principles of Economics (hidden)',
        isbn: MANKIW,
        subject: 'ECON',
        courseNumber: '101',
        regularPrice: 5,
        status: 'hidden',
      },
      {
        name: 'Principles of Economics',
        isbn: MANKIW,
        subject: 'ECON',
        courseNumber: '101',
        regularPrice: 40,
      },
      {
        name: 'Principles of Economics',
        isbn: MANKIW,
        subject: 'ECON',
        courseNumber: '101',
        regularPrice: 55,
      },
      {
        name: 'Principles of Economics',
        isbn: MANKIW,
        subject: 'ECON',
        courseNumber: '101',
        regularPrice: 90,
        status: 'sold',
      },
      {
        name: 'Intro to Algorithms',
        isbn: CLRS,
        subject: 'CMSC',
        courseNumber: '315',
        regularPrice: 70,
        status: 'sold',
      },
      { name: 'Econ study guide', subject: 'ECON', courseNumber: '101', regularPrice: 12 },
    ])) as [string];
    expect(
      await importRequiredBooks(
        t.database.db,
        [
          'course,isbn,title,required',
          `ECON 101,${MANKIW},Principles of Economics,required`,
          `CHEM 205,${ATKINS},Physical Chemistry,required`,
          `CHEM-205,0-262-03384-4,Algorithms for Chemists,optional`,
        ].join('\n'),
      ),
    ).toEqual({ imported: 3, errors: [] });
  });

  describe('the books of the courses', () => {
    const books = async (
      courses: string,
      who: TestUser | null = null,
    ): Promise<CourseBooksAnswer> => {
      const res = await t.app.inject({
        url: `/api/my-courses/books?courses=${courses}`,
        headers: who ? { cookie: who.cookie } : {},
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };

    it('lists the required books, listings, sales and alerted ISBNs of each course, with prices', async () => {
      const alerter = await createUser(t);
      const alert = await t.app.inject({
        method: 'POST',
        url: '/api/alerts/create',
        headers: { cookie: alerter.cookie },
        payload: { isbn: CLRS, subject: 'CMSC', courseNumber: '315' },
      });
      expect(alert.statusCode, alert.body).toBe(201);
      const answer = await books('ECON-101,CHEM-205,CMSC-315,MATH-211');
      const [econ, chem, cmsc, math] = answer.courses;
      expect(econ!.books.map((b) => [b.title, b.required, b.sources])).toEqual([
        ['Principles of Economics', true, ['listings', 'required', 'sales']],
        ['Econ study guide', null, ['listings']],
      ]);
      expect(econ!.books[0]).toMatchObject({
        isbn: MANKIW,
        cheapest: [
          { price: 40, condition: 'good' },
          { price: 55, condition: 'good' },
        ],
        prices: { active: { count: 2, min: 40, max: 55 }, sold: { count: 1, median: null } },
        highestPrice: 90,
      });
      expect(econ!.books[0]!.cheapest.map((c) => c._id)).not.toContain(hiddenId);
      expect(chem!.books.map((b) => [b.isbn, b.required, b.cheapest.length])).toEqual([
        [ATKINS, true, 0],
        [CLRS, false, 0],
      ]);
      expect(chem!.books[1]!.prices.sold.count).toBe(1); // the CLRS copy sold under CMSC 315
      expect(cmsc!.books.map((b) => b.sources)).toEqual([['alerts', 'sales']]);
      expect(math!.books).toEqual([]);
      expect(answer.summary).toEqual({ books: 4, available: 2, costToday: 52, highestTotal: 102 });
    });

    it('refuses an unknown subject or more than 12 courses', async () => {
      expect((await t.app.inject('/api/my-courses/books?courses=QUID-101')).statusCode).toBe(400);
      const many = Array.from({ length: 13 }, (_, i) => `BIOL-${100 + i}`).join(',');
      expect((await t.app.inject(`/api/my-courses/books?courses=${many}`)).statusCode).toBe(400);
    });

    it('completes course numbers from the catalogue', async () => {
      const res = await t.app.inject('/api/my-courses/suggest?subject=econ&number=1');
      expect(res.json().courses).toEqual(['ECON 101']);
      expect((await t.app.inject('/api/my-courses/suggest?subject=chem')).json().courses).toEqual([
        'CHEM 205',
      ]);
      expect((await t.app.inject('/api/my-courses/suggest?subject=quid')).statusCode).toBe(400);
    });
  });

  describe('notify me for everything', () => {
    const notify = (who: TestUser, courses: string[]) => post('notify', { courses }, who);

    it('creates the missing alerts once and says what it created; again creates nothing', async () => {
      const buyer = await createUser(t);
      const first = await notify(buyer, ['ECON-101', 'CHEM-205', 'MATH-211']);
      expect(first.statusCode, first.body).toBe(200);
      const body = first.json();
      expect(
        body.created.map(
          (a: { isbn: string | null; subject: string | null }) => a.isbn ?? a.subject,
        ),
      ).toEqual([ATKINS, CLRS, 'MATH']);
      expect(body.message).toBe('Created 3 alerts.');
      const second = (await notify(buyer, ['ECON-101', 'CHEM-205', 'MATH-211'])).json();
      expect(second).toMatchObject({ created: [], existing: 3, skipped: [] });
      expect(second.message).toMatch(/3 were already watched/);
    });

    it('makes each alert once when pressed 25 times at once', async () => {
      const buyer = await createUser(t);
      const answers = await Promise.all(
        Array.from({ length: 25 }, () => notify(buyer, ['CHEM-205', 'MATH-211'])),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(25).fill(200));
      expect(answers.reduce((n, a) => n + a.json().created.length, 0)).toBe(3);
      const alerts = await t.app.inject({
        url: '/api/alerts/get',
        headers: { cookie: buyer.cookie },
      });
      expect(alerts.json()).toHaveLength(3);
    });

    it('stays within the alert limit and names what it did not create', async () => {
      const buyer = await createUser(t);
      for (let i = 0; i < MAX_ALERTS_PER_USER - 1; i += 1) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/alerts/create',
          headers: { cookie: buyer.cookie },
          payload: { subject: 'BIOL', courseNumber: String(100 + i) },
        });
        expect(res.statusCode).toBe(201);
      }
      const body = (await notify(buyer, ['CHEM-205'])).json();
      expect(body.created).toHaveLength(1);
      expect(body.skipped).toEqual([
        {
          label: 'Algorithms for Chemists (CHEM 205)',
          reason: expect.stringMatching(/up to 20 alerts/),
        },
      ]);
      expect(body.message).toMatch(/Created 1 alert; 1 not created/);
    });

    it('needs a verified student', async () => {
      const unverified = await createUser(t, { verified: false });
      expect((await notify(unverified, ['ECON-101'])).statusCode).toBe(403);
      expect((await post('notify', { courses: ['ECON-101'] }, null)).statusCode).toBe(401);
    });
  });
});
