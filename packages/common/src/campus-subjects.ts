// The campus's subject codes (part of its configuration with campus.ts; a file of its own so that
// pages which only name the product or the schools do not load the list).

/**
 * Subject codes as students say them before a course number ("ECON 101"), with their names. A
 * listing's optional `subject` is one of these codes.
 */
export const SUBJECTS = [
  { code: 'ACCT', name: 'Accounting' },
  { code: 'AMST', name: 'American Studies' },
  { code: 'ANTH', name: 'Anthropology' },
  { code: 'ARTH', name: 'Art History' },
  { code: 'BIOL', name: 'Biology' },
  { code: 'BUAD', name: 'Business Administration' },
  { code: 'CHEM', name: 'Chemistry' },
  { code: 'CLAC', name: 'Classical Civilization' },
  { code: 'CMSC', name: 'Computer Science' },
  { code: 'DSCI', name: 'Data Science' },
  { code: 'ECON', name: 'Economics' },
  { code: 'EDUC', name: 'Education' },
  { code: 'ENGL', name: 'English' },
  { code: 'ENVR', name: 'Environmental Studies' },
  { code: 'FIN', name: 'Finance' },
  { code: 'FREN', name: 'French' },
  { code: 'GEOG', name: 'Geography' },
  { code: 'GERM', name: 'German Studies' },
  { code: 'HIST', name: 'History' },
  { code: 'JOUR', name: 'Journalism' },
  { code: 'LDST', name: 'Leadership Studies' },
  { code: 'LATN', name: 'Latin' },
  { code: 'MATH', name: 'Mathematics' },
  { code: 'MGMT', name: 'Management' },
  { code: 'MKT', name: 'Marketing' },
  { code: 'MUS', name: 'Music' },
  { code: 'PHIL', name: 'Philosophy' },
  { code: 'PHYS', name: 'Physics' },
  { code: 'PLSC', name: 'Political Science' },
  { code: 'PSYC', name: 'Psychology' },
  { code: 'RELG', name: 'Religious Studies' },
  { code: 'RHCS', name: 'Rhetoric and Communication Studies' },
  { code: 'SOC', name: 'Sociology' },
  { code: 'SPAN', name: 'Spanish' },
  { code: 'STAT', name: 'Statistics' },
  { code: 'THTR', name: 'Theatre' },
] as const;

export type SubjectCode = (typeof SUBJECTS)[number]['code'];
export const SUBJECT_CODES: ReadonlySet<string> = new Set(SUBJECTS.map((s) => s.code));

export function subjectName(code: string | null | undefined): string | undefined {
  return SUBJECTS.find((s) => s.code === code)?.name;
}
