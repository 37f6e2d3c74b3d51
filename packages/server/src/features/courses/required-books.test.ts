import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { requiredBooks } from '../../db/courses.schema';
import { importRequiredBooks } from './required-books';

const HEADER = 'course,isbn,title,required';

describe(`importing the required-books list (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const rows = () => t.database.db.select().from(requiredBooks).orderBy(requiredBooks.isbn);

  it('imports a list: codes in any form, ISBN-10 or -13, quoted titles with commas', async () => {
    const result = await importRequiredBooks(
      t.database.db,
      [
        HEADER,
        'ECON 101,978-0357133484,"Principles of Economics, 9th edition",required',
        'econ-101,0262033844,Introduction to Algorithms,Optional',
        '',
        'CHEM205, 9780198769866 ,Physical Chemistry,R',
      ].join('\r\n'),
    );
    expect(result).toEqual({ imported: 3, errors: [] });
    expect(
      (await rows()).map((r) => [r.subject, r.courseNumber, r.isbn, r.title, r.required]),
    ).toEqual([
      ['CHEM', '205', '9780198769866', 'Physical Chemistry', true],
      ['ECON', '101', '9780262033848', 'Introduction to Algorithms', false],
      ['ECON', '101', '9780357133484', 'Principles of Economics, 9th edition', true],
    ]);
  });

  it('reports every bad row by its line and imports nothing, keeping the old list', async () => {
    const result = await importRequiredBooks(
      t.database.db,
      [
        HEADER,
        'MATH 211,9780357133484,Calculus,required',
        'QUID 101,9780357133484,Unknown subject,required',
        'MATH 211,9780357133485,Bad checksum,required',
        'MATH 212,9780357133484,,maybe',
        'MATH 213,9780357133484,Too few fields',
      ].join('\n'),
    );
    expect(result.imported).toBe(0);
    expect(result.errors).toEqual([
      { line: 3, message: 'course "QUID 101": QUID is not a subject of this campus' },
      { line: 4, message: 'ISBN "9780357133485" is not a valid ISBN' },
      { line: 5, message: 'the title is empty' },
      { line: 5, message: '"maybe" is neither required nor optional' },
      { line: 6, message: 'has 3 fields, expected 4 (course, isbn, title, required)' },
    ]);
    expect(await rows()).toHaveLength(3);
  });

  it('refuses a file without the header, or not CSV, naming the line', async () => {
    expect(await importRequiredBooks(t.database.db, 'ECON 101,9780357133484,X,required')).toEqual({
      imported: 0,
      errors: [
        { line: 1, message: 'the first line must be the header course,isbn,title,required' },
      ],
    });
    const broken = await importRequiredBooks(
      t.database.db,
      `${HEADER}\nECON 101,"97803,X,required\n`,
    );
    expect(broken.imported).toBe(0);
    expect(broken.errors[0]!.message).toMatch(/not valid CSV/);
    expect(await rows()).toHaveLength(3);
  });

  it('shows the required books on the course page', async () => {
    const res = await t.app.inject('/api/course/ECON-101');
    expect(res.json().requiredBooks).toEqual([
      { isbn: '9780357133484', title: 'Principles of Economics, 9th edition', required: true },
      { isbn: '9780262033848', title: 'Introduction to Algorithms', required: false },
    ]);
  });
});
