import { courseSlug, formatCourse, type CourseCode } from './course';
import { activeCampus } from './active-campus';

/** The most courses a student's list keeps: a heavy term is six or seven. */
export const MAX_MY_COURSES = 12;
/** The longest pasted list read: a term's codes, not a document. */
export const COURSE_LIST_MAX_LENGTH = 2_000;

export const COURSE_LIST_MESSAGES = {
  unknownSubject: 'is not a subject of this campus',
  notACourse: 'is not a course code (such as ECON 101)',
  tooMany: `You can keep up to ${MAX_MY_COURSES} courses: remove one first`,
  tooLong: `The list is too long: paste at most ${COURSE_LIST_MAX_LENGTH} characters`,
} as const;

/** A piece of a pasted list or of a calendar that named no course of this campus, and why. */
export interface UnreadCourse {
  text: string;
  reason: string;
}

export interface ReadCourseList {
  /** The courses, in the order given, each once. */
  courses: CourseCode[];
  unknown: UnreadCourse[];
  /** Labels ("ECON 101") given more than once. */
  duplicates: string[];
}

/** Separators students put between codes: commas, semicolons, lines, "and", "&", "+", "/". */
const SEPARATORS = /[,;\n\r\t|/+&]+|\band\b/i;
/** A subject and a number anywhere in a piece: "ECON 101", "math-211", "chem205L". */
const CODE_IN_TEXT = /\b([A-Za-z]{2,5})[\s_.-]*(\d{2,4}[A-Za-z]?)\b/g;

const shorten = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);

/**
 * Reads the courses in a pasted list ("ECON 101, MATH-211 and chem 205"): codes in any case, with a
 * space, hyphen, underscore or nothing between subject and number, separated by commas, lines or
 * "and". A code whose subject is not the campus's, and a piece with no code at all, are reported in
 * `unknown`, never dropped; a course given twice is kept once and named in `duplicates`.
 */
export function parseCourseList(text: string): ReadCourseList {
  const result: ReadCourseList = { courses: [], unknown: [], duplicates: [] };
  const seen = new Set<string>();
  for (const raw of text.slice(0, COURSE_LIST_MAX_LENGTH).split(SEPARATORS)) {
    const piece = raw.trim();
    if (!piece) continue;
    const codes = [...piece.matchAll(CODE_IN_TEXT)];
    if (codes.length === 0) {
      result.unknown.push({ text: shorten(piece), reason: COURSE_LIST_MESSAGES.notACourse });
      continue;
    }
    for (const [, subjectText, numberText] of codes) {
      addCourse(result, seen, subjectText!, numberText!);
    }
  }
  return result;
}

/** Adds one subject and number to a list being read (known subject, each course once). */
export function addCourse(
  result: ReadCourseList,
  seen: Set<string>,
  subjectText: string,
  numberText: string,
): void {
  const subject = subjectText.toUpperCase();
  const courseNumber = numberText.toUpperCase();
  const label = formatCourse(subject, courseNumber);
  if (!activeCampus().subjectCodes.has(subject)) {
    if (!result.unknown.some((u) => u.text === label)) {
      result.unknown.push({ text: label, reason: COURSE_LIST_MESSAGES.unknownSubject });
    }
    return;
  }
  if (seen.has(label)) {
    if (!result.duplicates.includes(label)) result.duplicates.push(label);
    return;
  }
  seen.add(label);
  result.courses.push({ subject, courseNumber });
}

/** Finds the course codes in a calendar event's title ("ECON 101-02 Lecture" → ECON 101). */
export function courseCodesIn(text: string): Array<{ subject: string; courseNumber: string }> {
  return [...text.matchAll(CODE_IN_TEXT)].map(([, subject, courseNumber]) => ({
    subject: subject!,
    courseNumber: courseNumber!,
  }));
}

/** The course's key in a list, a URL and localStorage: `ECON-101`. */
export function courseKey(course: CourseCode): string {
  return courseSlug(course.subject, course.courseNumber);
}
