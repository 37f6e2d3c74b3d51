import { z } from 'zod';
import { activeCampus } from './active-campus';
import { alertSchema } from './alert.schemas';
import { apiSchemas } from './api';
import { priceSummarySchema } from './book.schemas';
import { parseCourseCode, type CourseCode } from './course';
import {
  COURSE_LIST_MAX_LENGTH,
  COURSE_LIST_MESSAGES,
  MAX_MY_COURSES,
  courseKey,
} from './course-list';
import { cleanText } from './text';

/** The largest calendar file read, in characters: a term's schedule is a few dozen KB. */
export const CALENDAR_MAX_CHARS = 1_000_000;
/** How deep components may nest in a calendar (a VCALENDAR holds VEVENTs, which hold VALARMs). */
export const CALENDAR_MAX_DEPTH = 4;
/** The longest line (after unfolding) a calendar may have. */
export const CALENDAR_MAX_LINE = 10_000;
/** The most events read from one calendar. */
export const CALENDAR_MAX_EVENTS = 5_000;
/** The cheapest listings shown per book on /my-courses. */
export const MY_COURSES_CHEAPEST = 3;

export const CALENDAR_MESSAGES = {
  tooLarge: `The calendar file is too large (over ${CALENDAR_MAX_CHARS / 1_000_000} MB): export only this term's schedule`,
  notCalendar: 'This is not an iCalendar (.ics) file: export your schedule as .ics and try again',
  encoding: 'The calendar file is not UTF-8 text: export it again as .ics (UTF-8)',
  tooDeep: 'The calendar file nests too deeply to be a schedule',
  longLine: 'The calendar file has a line too long to be a schedule',
  tooManyEvents: `The calendar file has more than ${CALENDAR_MAX_EVENTS} events: export only this term's schedule`,
  unreadable: 'The calendar file could not be read: export it again as .ics',
} as const;

/**
 * Whether a calendar's text was UTF-8: a UTF-16 (or UTF-32) file read as UTF-8 or as bytes
 * carries a NUL beside every ASCII character, and its byte-order mark as U+FFFD or "ÿþ"/"þÿ";
 * text decoded from another encoding keeps U+FFFD where a byte made no character. Checked before
 * anything else reads the text, so such a file hears the encoding message, not a NUL's.
 */
export function isUtf8CalendarText(text: string): boolean {
  return (
    !text.includes('\u0000') &&
    !text.includes('\uFFFD') &&
    !/^(?:\u00FF\u00FE|\u00FE\u00FF)/.test(text)
  );
}

/** A course of a student's list, as the API answers it. */
export const myCourseSchema = z
  .object({
    subject: z.string(),
    courseNumber: z.string(),
    label: z.string().describe('"ECON 101"'),
    slug: z.string().describe('"ECON-101": the course page\'s path segment and the list\'s key'),
  })
  .register(apiSchemas, { id: 'MyCourse' });
export type MyCourse = z.infer<typeof myCourseSchema>;

export const unreadCourseSchema = z
  .object({ text: z.string(), reason: z.string() })
  .register(apiSchemas, { id: 'UnreadCourse' });

/** A course code with a subject of this campus ("ECON-101", "econ 101"), read into a CourseCode. */
const courseWithSubject = cleanText()
  .max(20)
  .transform((code, ctx) => {
    const course = parseCourseCode(code);
    if (course?.subject) return course as CourseCode & { subject: string };
    ctx.addIssue({ code: 'custom', message: `${code}: ${COURSE_LIST_MESSAGES.unknownSubject}` });
    return z.NEVER;
  });

/** A list of courses: distinct, at most MAX_MY_COURSES. */
export const courseListSchema = z
  .array(courseWithSubject)
  .max(MAX_MY_COURSES, COURSE_LIST_MESSAGES.tooMany)
  .transform((courses) => [...new Map(courses.map((c) => [courseKey(c), c])).values()]);

/** POST /api/my-courses/add: codes typed or pasted, read by `parseCourseList`. */
export const addCoursesBodySchema = z.strictObject({
  // Multi-line: a pasted list puts one code a line (lines are one of parseCourseList's separators).
  text: cleanText({ multiline: true })
    .min(1, 'is required')
    .max(COURSE_LIST_MAX_LENGTH, COURSE_LIST_MESSAGES.tooLong),
});

/** POST /api/my-courses/remove. */
export const removeCourseBodySchema = z.strictObject({ course: courseWithSubject });

/** POST /api/my-courses/calendar: the text of an .ics file. */
export const calendarBodySchema = z.strictObject({
  calendar: z
    .string()
    .max(CALENDAR_MAX_CHARS, CALENDAR_MESSAGES.tooLarge)
    .refine(isUtf8CalendarText, CALENDAR_MESSAGES.encoding),
});

/** GET /api/my-courses/books?courses=ECON-101,MATH-211. */
export const courseBooksQuerySchema = z.strictObject({
  courses: cleanText()
    .max(400)
    .transform((s) => s.split(',').filter((c) => c.trim() !== ''))
    .pipe(courseListSchema),
});

/** POST /api/my-courses/notify. */
export const notifyBodySchema = z.strictObject({ courses: courseListSchema });

export const myCoursesAnswerSchema = z.object({
  success: z.literal(true),
  courses: z.array(myCourseSchema),
});

export const addCoursesAnswerSchema = myCoursesAnswerSchema.extend({
  added: z.array(myCourseSchema).describe('The courses this request added'),
  unknown: z.array(unreadCourseSchema).describe('Pieces that named no course of this campus'),
  duplicates: z.array(z.string()).describe('Courses given more than once or already in the list'),
});

export const calendarAnswerSchema = z.object({
  success: z.literal(true),
  courses: z.array(myCourseSchema),
  unknown: z
    .array(unreadCourseSchema)
    .describe('Events whose title names no course of this campus, shown to the student'),
  events: z.number().int().describe('Events read'),
});

/** A listing of a book that can be bought now. */
export const cheapListingSchema = z.object({
  _id: z.string(),
  price: z.number(),
  condition: z.string(),
});

/** A book of a course on /my-courses. */
export const myCourseBookSchema = z
  .object({
    isbn: z.string().nullable(),
    title: z.string(),
    required: z
      .boolean()
      .nullable()
      .describe("From the campus's required-books list: required, optional, or null (not on it)"),
    sources: z.array(z.enum(['listings', 'sales', 'alerts', 'required'])),
    cheapest: z.array(cheapListingSchema).describe('The cheapest active listings, cheapest first'),
    prices: priceSummarySchema.describe('The campus price hint of the book'),
    highestPrice: z
      .number()
      .nullable()
      .describe('The highest price the book has had on campus (listed or sold)'),
  })
  .register(apiSchemas, { id: 'MyCourseBook' });
export type MyCourseBook = z.infer<typeof myCourseBookSchema>;

export const courseBooksAnswerSchema = z.object({
  success: z.literal(true),
  courses: z.array(myCourseSchema.extend({ books: z.array(myCourseBookSchema) })),
  summary: z.object({
    books: z.number().int(),
    available: z.number().int().describe('Books with a listing now'),
    costToday: z.number().describe('The cheapest listing of each available book, summed'),
    highestTotal: z
      .number()
      .describe('The highest campus price of each of those books, summed: what they can cost'),
  }),
});
export type CourseBooksAnswer = z.infer<typeof courseBooksAnswerSchema>;

export const notifyAnswerSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  created: z.array(alertSchema),
  existing: z.number().int().describe('Alerts the student had already for these books'),
  skipped: z
    .array(z.object({ label: z.string(), reason: z.string() }))
    .describe('Alerts not created: the alert limit was reached'),
});
export type NotifyAnswer = z.infer<typeof notifyAnswerSchema>;

export function toMyCourse(course: { subject: string; courseNumber: string }): MyCourse {
  return {
    subject: course.subject,
    courseNumber: course.courseNumber,
    label: `${course.subject} ${course.courseNumber}`,
    slug: courseKey(course),
  };
}

/** GET /api/my-courses/suggest: completion while typing a code, the numbers known for a subject. */
export const courseSuggestQuerySchema = z.strictObject({
  subject: z
    .string()
    .max(10)
    .transform((s) => s.toUpperCase())
    .refine((s) => activeCampus().subjectCodes.has(s), 'is not a subject of this campus'),
  number: z
    .string()
    .max(5)
    .regex(/^[0-9A-Za-z]*$/, 'is not a course number')
    .default(''),
});
