// How a course is written and linked: plain text, with no campus list, so that a listing card's
// badge does not load the subjects (course.ts parses codes against them).

/** The course as students say it: "ECON 101", or just the number without a subject. */
export function formatCourse(subject: string | null | undefined, courseNumber: string): string {
  return subject ? `${subject} ${courseNumber}` : courseNumber;
}

/** The course page's path segment: `ECON-101`, or `101` without a subject. */
export function courseSlug(subject: string | null | undefined, courseNumber: string): string {
  return subject ? `${subject}-${courseNumber}` : courseNumber;
}
