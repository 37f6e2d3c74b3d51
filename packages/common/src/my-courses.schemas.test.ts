import { describe, expect, it } from 'vitest';
import {
  addCoursesBodySchema,
  CALENDAR_MESSAGES,
  calendarBodySchema,
  isUtf8CalendarText,
} from './my-courses.schemas';
import { TEXT_MESSAGES } from './text';

const ics =
  'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:ECON 101\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';

describe('my courses: what a pasted list and a calendar file may hold', () => {
  it('takes a pasted list with one code a line (lines are a separator), refuses other controls', () => {
    for (const text of ['ECON 101\nMATH 211', 'ECON 101\r\nMATH 211\r\n', 'ECON 101\n\tMATH 211']) {
      expect(addCoursesBodySchema.safeParse({ text }).success, JSON.stringify(text)).toBe(true);
    }
    for (const text of ['ECON 101\u0000', 'ECON 101\u0007']) {
      expect(addCoursesBodySchema.safeParse({ text }).error?.issues[0]?.message).toBe(
        TEXT_MESSAGES.control,
      );
    }
  });

  it('says a UTF-16 calendar is not UTF-8 (its NULs and byte-order mark), before anything else', () => {
    // A UTF-16 file's bytes, each read as one character (as a form or a script that does not decode).
    const littleEndian = [...ics].map((c) => `${c}\u0000`).join('');
    const bigEndian = [...ics].map((c) => `\u0000${c}`).join('');
    for (const calendar of [
      littleEndian, // a NUL after every ASCII character
      `\u00FF\u00FE${littleEndian}`, // with its byte-order mark
      `\u00FE\u00FF${bigEndian}`,
      `\uFFFD\uFFFD${littleEndian}`, // decoded as UTF-8: the mark is two replacement characters
      '\u00FF\u00FE', // a byte-order mark alone
    ]) {
      expect(isUtf8CalendarText(calendar)).toBe(false);
      expect(calendarBodySchema.safeParse({ calendar }).error?.issues[0]?.message).toBe(
        CALENDAR_MESSAGES.encoding,
      );
    }
    expect(calendarBodySchema.safeParse({ calendar: ics }).success).toBe(true);
    expect(calendarBodySchema.safeParse({ calendar: `\uFEFF${ics}` }).success).toBe(true);
  });
});
