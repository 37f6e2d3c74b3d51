import { activeCampus } from '@campus-books/common/active-campus';
import { parseCourseCode, type CourseCode } from '@campus-books/common/course';
import { parseIsbn } from '@campus-books/common/isbn';
import type { Db } from '../../db/database';
import { parseCsvRecords, type CsvRecords } from '../../lib/csv';
import { replaceRequiredBooks, type RequiredBookRow } from './required-books.repository';

/** The most rows an adoption list may have: a campus adopts a few thousand books a term. */
export const REQUIRED_BOOKS_MAX_ROWS = 50_000;

export interface RequiredBooksImport {
  imported: number;
  /** Each refused row, by its line in the file; a list with any is imported not at all. */
  errors: Array<{ line: number; message: string }>;
}

const HEADER = ['course', 'isbn', 'title', 'required'];
const REQUIRED = new Set(['required', 'r', 'yes', 'y', 'true', '1']);
const OPTIONAL = new Set(['optional', 'o', 'no', 'n', 'false', '0', 'recommended']);

/** Reads one row of the list; a message for each thing wrong with it. */
function readRow(record: string[]): {
  row?: Omit<RequiredBookRow, 'importedAt'>;
  problems: string[];
} {
  const problems: string[] = [];
  if (record.length !== HEADER.length) {
    return {
      problems: [`has ${record.length} fields, expected ${HEADER.length} (${HEADER.join(', ')})`],
    };
  }
  const [courseText, isbnText, titleText, requiredText] = record.map((v) => v.trim()) as [
    string,
    string,
    string,
    string,
  ];
  const course: CourseCode | null = parseCourseCode(courseText);
  if (!course?.subject) {
    const subject = /^[A-Za-z]{2,5}/.exec(courseText)?.[0]?.toUpperCase();
    problems.push(
      subject && !activeCampus().subjectCodes.has(subject) && /\d/.test(courseText)
        ? `course "${courseText}": ${subject} is not a subject of this campus`
        : `course "${courseText}" is not a course code such as ECON 101`,
    );
  }
  const isbn = parseIsbn(isbnText);
  if (!isbn.ok) problems.push(`ISBN "${isbnText}" is not a valid ISBN`);
  if (!titleText) problems.push('the title is empty');
  else if (titleText.length > 300) problems.push('the title is longer than 300 characters');
  const flag = requiredText.toLowerCase();
  if (!REQUIRED.has(flag) && !OPTIONAL.has(flag)) {
    problems.push(`"${requiredText}" is neither required nor optional`);
  }
  if (problems.length > 0 || !course?.subject || !isbn.ok) return { problems };
  return {
    problems,
    row: {
      subject: course.subject,
      courseNumber: course.courseNumber,
      isbn: isbn.isbn13,
      title: titleText,
      required: REQUIRED.has(flag),
    },
  };
}

/**
 * Replaces the campus's required-books list with a CSV's (`course,isbn,title,required`, a header
 * line first; csv-parse reads quotes and commas in titles). Every row is checked first: with any bad
 * row nothing is written and each is reported by its line; otherwise the old list is deleted and the
 * new one inserted in one transaction, so readers see the old list or the new one, never a part.
 * A book named twice for a course keeps its last row.
 */
export async function importRequiredBooks(db: Db, csv: string): Promise<RequiredBooksImport> {
  let records: CsvRecords;
  try {
    records = parseCsvRecords(csv, REQUIRED_BOOKS_MAX_ROWS + 1);
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 0;
    return {
      imported: 0,
      errors: [{ line, message: `the file is not valid CSV: ${(error as Error).message}` }],
    };
  }
  const errors: RequiredBooksImport['errors'] = [];
  const header = records[0]?.record.map((h) => h.trim().toLowerCase());
  if (!header || header.join(',') !== HEADER.join(',')) {
    return {
      imported: 0,
      errors: [
        {
          line: records[0]?.info.lines ?? 1,
          message: `the first line must be the header ${HEADER.join(',')}`,
        },
      ],
    };
  }
  const rows = new Map<string, Omit<RequiredBookRow, 'importedAt'>>();
  for (const { record, info } of records.slice(1)) {
    const { row, problems } = readRow(record);
    for (const message of problems) errors.push({ line: info.lines, message });
    if (row) rows.set(`${row.subject} ${row.courseNumber} ${row.isbn}`, row);
  }
  if (errors.length > 0) return { imported: 0, errors };
  await replaceRequiredBooks(db, [...rows.values()]);
  return { imported: rows.size, errors: [] };
}
