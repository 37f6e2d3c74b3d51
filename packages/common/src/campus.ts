/**
 * Campus configuration: everything specific to one university lives here, so another campus can adopt
 * the product by editing this one file. The defaults are the original campus's values.
 */

export const UNIVERSITY_NAME = 'University of Richmond';
export const PRODUCT_NAME = 'Campus Books';
/**
 * Who builds and runs this installation (e.g. a student group), credited in the footer (spec section
 * 1). Empty by default: a campus names its own operator, and without one the footer has no credit.
 */
export const OPERATOR_NAME: string = '';
export const CREDIT_YEAR = 2025;

/** The footer's credit line for an operator, or null when none is named. */
export function footerCredit(operator: string = OPERATOR_NAME): string | null {
  const name = operator.trim();
  return name === '' ? null : `Built by ${name}, for students · ${CREDIT_YEAR}`;
}

/** School flags: the keys are part of the public API (spec section 7); labels are what students see. */
export const SCHOOLS = [
  { flag: 'Jepson', label: 'Jepson', filterLabel: 'Jepson' },
  { flag: 'Bschool', label: 'Bschool', filterLabel: 'Bschool' },
  { flag: 'Leadership', label: 'Leadership', filterLabel: 'Leadership' },
  { flag: 'ArtScience', label: 'Arts & Sciences', filterLabel: 'Arts & Sciences' },
  {
    flag: 'LawProfessional',
    label: 'Law and Professional Studies',
    filterLabel: 'Law and Prof Studies',
  },
] as const;

export type SchoolFlag = (typeof SCHOOLS)[number]['flag'];
export const SCHOOL_FLAGS = SCHOOLS.map((s) => s.flag) as [SchoolFlag, ...SchoolFlag[]];

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
