import { beforeAll, describe, expect, it } from 'vitest';
import { CALENDAR_MESSAGES } from '@campus-books/common/my-courses.schemas';
import { createUser, TEST_ENGINE, type TestApp, type TestUser } from '../../../test/helpers';
import { myCoursesSuite } from './my-courses.test-support';

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

// The books and alerts of a student's courses: my-courses.books.test.ts.
describe(`/api/my-courses: the list and a calendar file (${TEST_ENGINE})`, () => {
  const suite = myCoursesSuite();
  let t: TestApp;
  const { post } = suite;
  let student: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    t = suite.app();
    student = await createUser(t);
    other = await createUser(t);
  });

  describe('the list', () => {
    it('adds a pasted list, reports unknown pieces and duplicates, keeps the order', async () => {
      const res = await post(
        'add',
        { text: 'econ-101, MATH 211 and QUID 101, chem205, ECON 101' },
        student,
      );
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
      const again = (await post('add', { text: 'MATH-211' }, student)).json();
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
      const res = await post('add', { text: many }, student);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/up to 12 courses/);
      expect(
        (
          await t.app.inject({ url: '/api/my-courses/get', headers: { cookie: student.cookie } })
        ).json().courses,
      ).toHaveLength(3);
    });

    it('removes a course; removing it again changes nothing', async () => {
      await post('add', { text: 'PHYS 101' }, student);
      expect((await post('remove', { course: 'phys-101' }, student)).json().courses).toHaveLength(
        3,
      );
      expect((await post('remove', { course: 'PHYS-101' }, student)).statusCode).toBe(200);
      expect((await post('remove', { course: 'QUID-101' }, student)).statusCode).toBe(400);
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
});
