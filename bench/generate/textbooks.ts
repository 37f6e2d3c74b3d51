import { NAME_MAX_LENGTH } from '@campus-books/common/constants';
import { defaultCampus } from './campus';
import type { SeededRandom } from './random';

/** Course subjects as textbook titles name them; a few (Calculus, Statistics) are deliberately common. */
const SUBJECTS: readonly (readonly [string, number])[] = [
  ['Calculus', 6],
  ['Multivariable Calculus', 2],
  ['Linear Algebra', 3],
  ['Statistics', 5],
  ['Probability', 2],
  ['Discrete Mathematics', 2],
  ['General Chemistry', 4],
  ['Organic Chemistry', 4],
  ['Biochemistry', 2],
  ['Cell Biology', 3],
  ['Genetics', 2],
  ['Ecology', 2],
  ['Physics', 4],
  ['Classical Mechanics', 1],
  ['Electricity and Magnetism', 1],
  ['Microeconomics', 4],
  ['Macroeconomics', 4],
  ['Econometrics', 1],
  ['Financial Accounting', 3],
  ['Managerial Accounting', 2],
  ['Corporate Finance', 2],
  ['Marketing Management', 2],
  ['Business Law', 2],
  ['Operations Management', 1],
  ['Supply Chain Management', 1],
  ['Real Estate Finance', 1],
  ['Entrepreneurship', 1],
  ['Organizational Behavior', 2],
  ['Leadership', 3],
  ['Ethics', 2],
  ['Logic', 1],
  ['Philosophy', 2],
  ['Psychology', 5],
  ['Cognitive Psychology', 1],
  ['Neuroscience', 2],
  ['Sociology', 3],
  ['Anthropology', 2],
  ['Criminology', 1],
  ['American Government', 2],
  ['International Relations', 2],
  ['Comparative Politics', 1],
  ['Political Theory', 1],
  ['World History', 2],
  ['American History', 2],
  ['European History', 1],
  ['Art History', 2],
  ['Music Theory', 1],
  ['Film Analysis', 1],
  ['Creative Writing', 1],
  ['American Literature', 2],
  ['British Literature', 1],
  ['Shakespeare', 1],
  ['Rhetoric', 1],
  ['Journalism', 1],
  ['Linguistics', 1],
  ['Spanish', 2],
  ['French', 1],
  ['German', 1],
  ['Latin', 1],
  ['Chinese', 1],
  ['Japanese', 1],
  ['Computer Science', 3],
  ['Data Structures', 2],
  ['Algorithms', 2],
  ['Database Systems', 1],
  ['Operating Systems', 1],
  ['Data Science', 2],
  ['Machine Learning', 1],
  ['Environmental Science', 2],
  ['Geography', 1],
  ['Public Health', 1],
  ['Epidemiology', 1],
  ['Religious Studies', 1],
  ['Constitutional Law', 1],
  ['Paralegal Studies', 1],
  ['Human Resource Management', 1],
  ['Nonprofit Management', 1],
  ['Education', 1],
];

const PREFIXES = [
  'Introduction to',
  'Principles of',
  'Foundations of',
  'Essentials of',
  'Fundamentals of',
  'Elements of',
  'Readings in',
  'Topics in',
  'Advanced',
  'Applied',
  'Modern',
  'A First Course in',
];

const SUBTITLES = [
  'A Modern Approach',
  'Concepts and Applications',
  'Theory and Practice',
  'An Introduction',
  'Early Transcendentals',
  'A Global Perspective',
  'Tools and Techniques',
  'Principles and Problems',
  'A Brief Course',
  'Cases and Readings',
];

const EDITIONS = [
  '2nd Edition',
  '3rd Edition',
  '4th Edition',
  '5th Edition',
  '7th Edition',
  '10th Edition',
];

const PICKUP_PLACES = [
  'Boatwright Library',
  'Tyler Haynes Commons',
  'Heilman Dining Center',
  'Robins School of Business',
  'Jepson Hall',
  'Gottwald Center for the Sciences',
  'Weinstein Hall',
  'Modlin Center',
];

const REMARKS = [
  'Some highlighting in the first chapters.',
  'No writing inside, spine intact.',
  'Access code already used.',
  'Comes with the study guide.',
  'Cover is a little worn.',
  'Barely opened, like new.',
  'Notes in pencil in the margins.',
  'Loose-leaf version with binder.',
];

/**
 * The default campus's school keys that fit one of its majors (in the campus's order, as listings
 * store them), so school filters and majors agree as in real listings.
 */
export function schoolsForMajor(major: string): string[] {
  if (/^(Business Administration|Accounting|Economics Business|Information Systems)/.test(major))
    return ['Bschool'];
  if (/^(Sport Management|Human Resource Management|Nonprofit Management)/.test(major))
    return ['Bschool', 'LawProfessional'];
  if (/^(Leadership Studies|PPEL)/.test(major)) return ['Jepson', 'Leadership'];
  if (/^(Paralegal Studies|Pre Law|Law and Liberal Arts|Liberal Arts)/.test(major))
    return ['LawProfessional'];
  return ['ArtScience'];
}

export const MAJOR_VALUES_LIST: readonly string[] = defaultCampus.majors.map((m) => m.value);

/** A textbook-like title within the product's name limit, e.g. "Calculus: Early Transcendentals, 3rd Edition". */
export function textbookTitle(random: SeededRandom): { title: string; subject: string } {
  const subject = random.weighted(SUBJECTS);
  for (;;) {
    let title = random.chance(0.5)
      ? `${random.pick(PREFIXES)} ${subject}`
      : `${subject}: ${random.pick(SUBTITLES)}`;
    if (random.chance(0.4)) title += `, ${random.pick(EDITIONS)}`;
    if (title.length <= NAME_MAX_LENGTH) return { title, subject };
  }
}

export function listingDescription(random: SeededRandom, subject: string, course: string): string {
  return `Used for ${subject} ${course}. ${random.pick(REMARKS)}`;
}

export function pickupPlace(random: SeededRandom): string | null {
  return random.chance(0.7) ? random.pick(PICKUP_PLACES) : null;
}
