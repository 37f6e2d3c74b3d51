import { activeCampus } from './active-campus';
/** A course as students say it: "ECON 101" (subject and number), or a bare number ("101"). */
export interface CourseCode {
  subject: string | null;
  courseNumber: string;
}

/** The longest course code an address may carry (`/course/{code}`, `/api/course/{code}`). */
export const COURSE_CODE_MAX_LENGTH = 20;

/**
 * Reads a course code in any of the ways students type it: `ECON 101`, `econ101`, `ECON-101`,
 * `ECON_101`, or a bare number; the subject must be one of the campus's (the campus configuration's subjects). A
 * number may carry a letter suffix (`CHEM 205L`). Null when the text is no course code.
 */
export function parseCourseCode(text: string): CourseCode | null {
  const value = text.trim();
  const withSubject = /^([A-Za-z]{2,5})[\s_-]*(\d{2,4}[A-Za-z]?)$/.exec(value);
  if (withSubject) {
    const subject = withSubject[1]!.toUpperCase();
    if (!activeCampus().subjectCodes.has(subject)) return null;
    return { subject, courseNumber: withSubject[2]!.toUpperCase() };
  }
  if (/^\d{1,4}[A-Za-z]?$/.test(value)) return { subject: null, courseNumber: value.toUpperCase() };
  return null;
}

// The card's course line needs only these, without the subject list (course-name.ts).
export { courseSlug, formatCourse } from './course-name';
