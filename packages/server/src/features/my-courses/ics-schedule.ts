import { activeCampus } from '@campus-books/common/active-campus';
import ICAL from 'ical.js';
import { addCourse, courseCodesIn, type ReadCourseList } from '@campus-books/common/course-list';
import {
  CALENDAR_MAX_DEPTH,
  CALENDAR_MAX_EVENTS,
  CALENDAR_MAX_LINE,
  CALENDAR_MESSAGES,
  isUtf8CalendarText,
} from '@campus-books/common/my-courses.schemas';
import { COURSE_LIST_MESSAGES } from '@campus-books/common/course-list';
import { AppError } from '../../lib/errors';

export interface ReadCalendar extends ReadCourseList {
  events: number;
}

/**
 * Checks what the parser would otherwise have to survive, before it runs: text that was not UTF-8,
 * a line longer than any schedule's, components nested deeper than a calendar's, too many events.
 * The file's size is the route's (schema and body limit). Each refusal is a 400 with its reason.
 */
function checkCalendarShape(text: string): void {
  if (!isUtf8CalendarText(text)) {
    throw new AppError(400, CALENDAR_MESSAGES.encoding);
  }
  const lines = text.replace(/\r?\n[ \t]/g, '').split(/\r?\n|\r/);
  const first = lines.find((line) => line.trim() !== '');
  if (!first || first.trim().toUpperCase() !== 'BEGIN:VCALENDAR') {
    throw new AppError(400, CALENDAR_MESSAGES.notCalendar);
  }
  let depth = 0;
  let events = 0;
  for (const line of lines) {
    if (line.length > CALENDAR_MAX_LINE) throw new AppError(400, CALENDAR_MESSAGES.longLine);
    const upper = line.slice(0, 20).toUpperCase();
    if (upper.startsWith('BEGIN:')) {
      depth += 1;
      if (depth > CALENDAR_MAX_DEPTH) throw new AppError(400, CALENDAR_MESSAGES.tooDeep);
      if (upper.startsWith('BEGIN:VEVENT') && ++events > CALENDAR_MAX_EVENTS) {
        throw new AppError(400, CALENDAR_MESSAGES.tooManyEvents);
      }
    } else if (upper.startsWith('END:')) {
      depth -= 1;
    }
  }
}

/**
 * The courses of a schedule exported as iCalendar (.ics): each event's title (else its description)
 * is read for course codes ("ECON 101-02 Lecture" → ECON 101), each course once. An event that names
 * no course of this campus is returned in `unknown` (its title), so the student sees what was not
 * read. Only the text is parsed (ical.js): nothing the file names is fetched.
 */
export function readCalendar(raw: string): ReadCalendar {
  const text = raw.replace(/^\uFEFF/, '');
  checkCalendarShape(text);
  let parsed: unknown[];
  try {
    parsed = ICAL.parse(text) as unknown[];
  } catch {
    throw new AppError(400, CALENDAR_MESSAGES.unreadable);
  }
  const calendars = (Array.isArray(parsed[0]) ? parsed : [parsed]) as unknown[];
  const result: ReadCalendar = { courses: [], unknown: [], duplicates: [], events: 0 };
  const seen = new Set<string>();
  for (const jcal of calendars) {
    if (!Array.isArray(jcal)) throw new AppError(400, CALENDAR_MESSAGES.notCalendar);
    const calendar = new ICAL.Component(
      jcal as unknown as ConstructorParameters<typeof ICAL.Component>[0],
    );
    for (const event of calendar.getAllSubcomponents('vevent')) {
      result.events += 1;
      const title = String(event.getFirstPropertyValue('summary') ?? '').trim();
      const description = String(event.getFirstPropertyValue('description') ?? '');
      let codes = courseCodesIn(title);
      // A description names many things ("Fall 2026"): only a code of this campus is read there.
      if (codes.length === 0) {
        codes = courseCodesIn(description).filter((c) =>
          activeCampus().subjectCodes.has(c.subject.toUpperCase()),
        );
      }
      if (codes.length === 0) {
        const shown = title || '(an event without a title)';
        if (!result.unknown.some((u) => u.text === shown)) {
          result.unknown.push({
            text: shown.slice(0, 80),
            reason: COURSE_LIST_MESSAGES.notACourse,
          });
        }
        continue;
      }
      for (const code of codes) addCourse(result, seen, code.subject, code.courseNumber);
    }
  }
  return result;
}
