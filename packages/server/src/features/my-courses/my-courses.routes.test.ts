import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ALERTS_PER_USER } from '@campus-books/common/alert.schemas';
import { CALENDAR_MESSAGES, type CourseBooksAnswer } from '@campus-books/common/my-courses.schemas';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { insertListings } from '../../../test/listing-fixtures';
import { importRequiredBooks } from '../courses/required-books';

const CLRS = '9780262033848';
const MANKIW = '9780357133484';
const ATKINS = '9780198769866';

const ics = (...lines: string[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Campus//Schedule//EN',
    ...lines,
    'END:VCALENDAR',
  ].join('\r\n');
const event = (summary: string) => [
  'BEGIN:VEVENT',
  `UID:${summary.replace(/\W/g, '')}@campus.example`,
  'DTSTART:20260831T130000Z',
  'RRULE:FREQ=WEEKLY;COUNT=14',
  `SUMMARY:${summary}`,
  'END:VEVENT',
];

describe(`/api/my-courses (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let student: TestUser;
  let other: TestUser;
  let hiddenId: string;
  beforeAll(async () => {
    t = await createTestApp();
    student = await createUser(t);
    other = await createUser(t);
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
  afterAll(() => t.close());

  const post = (url: string, payload: unknown, who: TestUser | null = student) =>
    t.app.inject({
      method: 'POST',
      url: `/api/my-courses/${url}`,
      payload: payload as object,
      headers: who ? { cookie: who.cookie } : {},
    });

  describe('the list', () => {
    it('adds a pasted list, reports unknown pieces and duplicates, keeps the order', async () => {
      const res = await post('add', { text: 'econ-101, MATH 211 and QUID 101, chem205, ECON 101' });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.courses.map((c: { label: string }) => c.label)).toEqual([
        'ECON 101',
        'MATH 211',
        'CHEM 205',
      ]);
      expect(body.unknown).toEqual([
        { text: 'QUID 101', reason: 'is not a subject of this campus' },
      ]);
      expect(body.duplicates).toEqual(['ECON 101']);
      const again = (await post('add', { text: 'MATH-211' })).json();
      expect(again.added).toEqual([]);
      expect(again.duplicates).toEqual(['MATH 211']);
      expect(again.courses).toHaveLength(3);
    });

    it("is each student's own: another user sees and changes only theirs", async () => {
      const res = await t.app.inject({
        url: '/api/my-courses/get',
        headers: { cookie: other.cookie },
      });
      expect(res.json().courses).toEqual([]);
      await post('remove', { course: 'ECON-101' }, other);
      const mine = await t.app.inject({
        url: '/api/my-courses/get',
        headers: { cookie: student.cookie },
      });
      expect(mine.json().courses).toHaveLength(3);
      expect((await t.app.inject('/api/my-courses/get')).statusCode).toBe(401);
      expect((await post('add', { text: 'ECON 101' }, null)).statusCode).toBe(401);
    });

    it('refuses more than 12 courses with a 409 and adds none', async () => {
      const many = Array.from({ length: 10 }, (_, i) => `BIOL ${200 + i}`).join(', ');
      const res = await post('add', { text: many });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/up to 12 courses/);
      expect(
        (
          await t.app.inject({ url: '/api/my-courses/get', headers: { cookie: student.cookie } })
        ).json().courses,
      ).toHaveLength(3);
    });

    it('removes a course; removing it again changes nothing', async () => {
      await post('add', { text: 'PHYS 101' });
      expect((await post('remove', { course: 'phys-101' })).json().courses).toHaveLength(3);
      expect((await post('remove', { course: 'PHYS-101' })).statusCode).toBe(200);
      expect((await post('remove', { course: 'QUID-101' })).statusCode).toBe(400);
    });

    it('adds the same courses sent 25 times at once once', async () => {
      const racer = await createUser(t);
      const answers = await Promise.all(
        Array.from({ length: 25 }, () => post('add', { text: 'HIST 101, ENGL 103' }, racer)),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(25).fill(200));
      const list = await t.app.inject({
        url: '/api/my-courses/get',
        headers: { cookie: racer.cookie },
      });
      expect(list.json().courses.map((c: { label: string }) => c.label)).toEqual([
        'HIST 101',
        'ENGL 103',
      ]);
    });
  });

  describe('a list pasted one code a line', () => {
    it('reads line breaks as separators, as the docs say; other control characters are a 400', async () => {
      const pasting = await createUser(t);
      const res = await post('add', { text: 'ECON 101\nMATH-211\r\nchem 205\n' }, pasting);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().courses.map((c: { label: string }) => c.label)).toEqual([
        'ECON 101',
        'MATH 211',
        'CHEM 205',
      ]);
      const bell = await post('add', { text: 'ECON 101\u0007' }, pasting);
      expect(bell.statusCode).toBe(400);
      expect(bell.json()).toMatchObject({
        message: 'text: Must not contain line breaks or control characters',
      });
    });
  });

  describe('a calendar file', () => {
    it('reads the courses of the events and shows the events it could not read', async () => {
      const res = await post(
        'calendar',
        {
          calendar: ics(
            ...event('ECON 101-02 Lecture'),
            ...event('math211 Lab'),
            ...event('Lunch with Sam'),
            ...event('QUID 300 Seminar'),
            ...event('ECON 101 Recitation'),
          ),
        },
        null,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        courses: [
          { subject: 'ECON', courseNumber: '101', label: 'ECON 101', slug: 'ECON-101' },
          { subject: 'MATH', courseNumber: '211', label: 'MATH 211', slug: 'MATH-211' },
        ],
        unknown: [
          { text: 'Lunch with Sam', reason: 'is not a course code (such as ECON 101)' },
          { text: 'QUID 300', reason: 'is not a subject of this campus' },
        ],
        events: 5,
      });
    });

    it.each([
      ['a file that is no calendar', 'hello, world', /not an iCalendar/],
      [
        'a broken calendar',
        ics('BEGIN:VEVENT', 'SUMMARY;X=":ECON 101', 'END:VEVENT'),
        /could not be read/,
      ],
      [
        'components nested 500 deep',
        ics(...Array(500).fill('BEGIN:VEVENT'), ...Array(500).fill('END:VEVENT')),
        /nests too deeply/,
      ],
      [
        'a line of 100,000 characters',
        ics('BEGIN:VEVENT', `SUMMARY:${'x'.repeat(100_000)}`, 'END:VEVENT'),
        /line too long/,
      ],
      [
        'a folded line of 100,000 characters',
        ics('BEGIN:VEVENT', `SUMMARY:${'x\r\n '.repeat(50_000)}`, 'END:VEVENT'),
        /line too long/,
      ],
      [
        'UTF-16 text read as UTF-8',
        Buffer.from(ics(...event('ECON 101')), 'utf16le')
          .toString('latin1')
          .replace(/\0/g, '\uFFFD'),
        /not UTF-8/,
      ],
      [
        'a file of 1.3 MB',
        ics(...Array(8_000).fill(event('ECON 101 Lecture with a long title')).flat()),
        /too large/,
      ],
      ['6,000 events', ics(...Array(6_000).fill(event('X')).flat()), /more than 5000 events/],
    ])('refuses %s with a clear 400', async (_what, calendar, message) => {
      const res = await post('calendar', { calendar }, null);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, statusCode: 400 });
      expect(res.json().message).toMatch(message);
    });

    it('refuses a body with a 10 MB line with a 413, before reading it', async () => {
      const res = await post(
        'calendar',
        { calendar: ics(`X-JUNK:${'a'.repeat(10 * 1024 * 1024)}`) },
        null,
      );
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ success: false, message: 'The request is too large' });
    });

    it('says a UTF-16 file is not UTF-8 (its NULs, its byte-order mark), not that it holds a NUL', async () => {
      const utf16 = Buffer.from(ics(...event('ECON 101')), 'utf16le');
      for (const bytes of [utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), utf16])]) {
        const res = await post('calendar', { calendar: bytes.toString('latin1') }, null);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({
          success: false,
          message: `calendar: ${CALENDAR_MESSAGES.encoding}`,
        });
      }
    });
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
