/**
 * Campus configuration: everything specific to one university lives here and in the campus-*.ts files
 * beside it (majors, subjects, meetup spots: lists of their own, so that the pages which only name the
 * product do not load them), so another campus adopts the product by editing these. The defaults are
 * the original campus's values.
 */

export const UNIVERSITY_NAME = 'University of Richmond';
export const PRODUCT_NAME = 'Campus Books';
/**
 * Who builds and runs this installation (e.g. a student group), credited in the footer (spec section
 * 1). Empty by default: a campus names its own operator, and without one the footer has no credit.
 */
export const OPERATOR_NAME: string = '';
export const CREDIT_YEAR = 2025;
/**
 * The campus's time zone (an IANA name): the hour of the daily alert digest is read in it. The
 * server's CAMPUS_TIME_ZONE setting overrides it.
 */
export const CAMPUS_TIME_ZONE = 'America/New_York';

/** The footer's credit line for an operator, or null when none is named. */
export function footerCredit(operator: string = OPERATOR_NAME): string | null {
  const name = operator.trim();
  return name === '' ? null : `Built by ${name}, for students · ${CREDIT_YEAR}`;
}

/**
 * Whether sign-up asks every student for a GroupMe link (the original campus's rule, from before
 * messages). Off: the link is optional, buyers write through the product's messages, and the
 * listing page offers GroupMe only for sellers who gave a link (decision 019).
 */
export const GROUPME_REQUIRED: boolean = false;

/** How every GroupMe link starts, unless the server's GROUPME_LINK_PREFIX says otherwise. */
export const DEFAULT_GROUPME_LINK_PREFIX = 'https://groupme.com/';

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
