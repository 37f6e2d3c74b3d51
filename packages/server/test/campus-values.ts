import { activeCampus, type Major } from '@campus-books/common/active-campus';
import type { CampusConfig } from '@campus-books/common/campus-config';

/**
 * The values of the campus a test runs on (the default campus, or the second campus's project in
 * vitest.config.ts): the API suites that run on both name schools, subjects, majors and addresses
 * through these, read when called, so no value of one campus is written into them. Every campus
 * has at least three schools and five subjects and majors (the second campus has no more).
 */
export const campusValues = {
  /** The school e-mail domain: the campus's, or, for a campus that admits any address, one reserved for examples. */
  emailDomain(): string {
    return activeCampus().config.emailDomain ?? 'example.edu';
  },
  /** An address at the campus's school domain. */
  email(local: string): string {
    return `${local}@${campusValues.emailDomain()}`;
  },
  /** The campus's `i`th school (0 to 2). */
  school(i: number): CampusConfig['schools'][number] {
    return pick(activeCampus().schools, i, 'school');
  },
  /** The campus's `i`th subject code (0 to 4). */
  subject(i: number): string {
    return pick(activeCampus().subjects, i, 'subject').code;
  },
  /** The campus's `i`th major (0 to 4): its label and its stored value. */
  major(i: number): Major {
    return pick(activeCampus().majors, i, 'major');
  },
};

function pick<T>(list: readonly T[], i: number, what: string): T {
  const found = list[i];
  if (found === undefined) throw new Error(`the test campus has no ${what} number ${i + 1}`);
  return found;
}
