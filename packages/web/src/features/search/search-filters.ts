import { activeCampus } from '@campus-books/common/active-campus';
import { formatCount } from '@campus-books/common/display';
import { webPaths } from '@campus-books/common/paths';
import {
  CONDITIONS,
  PRICE_MAX,
  SEARCH_STATUSES,
  SEARCH_TYPES,
  type Condition,
} from '@campus-books/common/constants';

/**
 * The search URL is the source of truth: these are the filters it carries. It is read by the rules of
 * the API's search schema (common/listing.schemas `listingSearchSchema`, over the same constants; a
 * test holds the two together), except that a value the schema refuses is dropped rather than shown as
 * an error. The reader does not use the zod schema itself: the landing prefetch reads the URL on the
 * home page's first load, which must stay free of zod. It runs on the server too (server rendering):
 * the campus is asked for inside the functions (activeCampus()), never when the module loads.
 */
export interface SearchFilters {
  searchTerm: string;
  courseNumber: string;
  /** A campus subject code ('' for any). */
  subject: string;
  major: string;
  condition: Condition | 'con-all';
  /** At most one school, a key of the campus's schools; '' for all. */
  school: string;
  /** Whole dollars as typed ('' for any price): the listing's price is at most this. */
  maxPrice: string;
  sort: SortChoice;
  /** Carried through from links such as 'Show more books' (type=sale). */
  type: string;
  status: string;
}

/** The spec's sort options in the spec's order; 'Best match' is offered first only with a search term. */
export const SORT_CHOICES = [
  { value: 'best', label: 'Best match', sort: undefined, order: undefined },
  { value: 'price-desc', label: 'Price high to low', sort: 'regularPrice', order: 'desc' },
  { value: 'price-asc', label: 'Price low to high', sort: 'regularPrice', order: 'asc' },
  { value: 'latest', label: 'Latest', sort: 'createdAt', order: 'desc' },
  { value: 'oldest', label: 'Oldest', sort: 'createdAt', order: 'asc' },
] as const;
export type SortChoice = (typeof SORT_CHOICES)[number]['value'];

export const DEFAULT_STATUS = 'active_or_none';

/**
 * The search address a search without a status filter is sent to (the default filter added), or
 * null when it has one. The page replaces the history entry; the server answers a redirect.
 */
export function addressWithDefaultStatus(search: string): string | null {
  const params = new URLSearchParams(search);
  if (params.has('status')) return null;
  params.set('status', DEFAULT_STATUS);
  return `${webPaths.search.pattern}?${params.toString()}`;
}

function isCondition(value: string | null): value is Condition {
  return CONDITIONS.includes(value as Condition);
}

/** A maximum price the API accepts (whole dollars, 0 to PRICE_MAX) without leading zeros, or ''. */
export function readMaxPrice(value: string | null | undefined): string {
  const text = (value ?? '').trim();
  if (!/^\d{1,8}$/.test(text) || Number(text) > PRICE_MAX) return '';
  return String(Number(text));
}

/** The sort the URL asks for; with a search term and no explicit sort, the best match comes first. */
function readSort(params: URLSearchParams): SortChoice {
  const sort = params.get('sort');
  const order = params.get('order') ?? 'desc';
  const choice = SORT_CHOICES.find((c) => c.sort === sort && c.order === order);
  if (choice) return choice.value;
  return params.get('searchTerm') ? 'best' : 'latest';
}

const oneOf = <T extends string>(choices: readonly T[], value: string | null): value is T =>
  choices.includes(value as T);

/** A campus subject code, as the schema reads it (trimmed, upper-cased), or ''. */
function readSubject(value: string | null): string {
  const code = (value ?? '').trim().toUpperCase();
  return activeCampus().subjectCodes.has(code) ? code : '';
}

/**
 * The school the URL names, as the API reads it (its keys in any case), or ''. The search page writes
 * `schools=<key>`; links of the original API say `<Key>=true` and are read the same way (the server's
 * foldSchoolParams). The panel offers one school: of a link naming several, the campus's first is kept.
 */
function readSchool(params: URLSearchParams): string {
  const campus = activeCampus();
  const listed = (params.get('schools') ?? '')
    .split(',')
    .map((key) => campus.schoolKey(key.trim()));
  const flagged = campus.schoolKeys.filter((key) => params.get(key) === 'true');
  const chosen = new Set([...listed, ...flagged]);
  return campus.schoolKeys.find((key) => chosen.has(key)) ?? '';
}

export function readFilters(params: URLSearchParams): SearchFilters {
  const condition = params.get('condition');
  const type = params.get('type');
  const status = params.get('status');
  return {
    searchTerm: params.get('searchTerm') ?? '',
    courseNumber: params.get('courseNumber') ?? '',
    subject: readSubject(params.get('subject')),
    major: params.get('major') ?? '',
    condition: isCondition(condition) ? condition : 'con-all',
    school: readSchool(params),
    maxPrice: readMaxPrice(params.get('maxPrice')),
    sort: readSort(params),
    type: oneOf(SEARCH_TYPES, type) ? type : '',
    status: oneOf(SEARCH_STATUSES, status) ? status : DEFAULT_STATUS,
  };
}

/** The URL query for a set of filters (only what is set, so shared links stay short). */
export function filtersToParams(filters: SearchFilters): URLSearchParams {
  const params = new URLSearchParams();
  const term = filters.searchTerm.trim();
  if (term) params.set('searchTerm', term);
  if (filters.courseNumber.trim()) params.set('courseNumber', filters.courseNumber.trim());
  if (filters.subject) params.set('subject', filters.subject);
  if (filters.major) params.set('major', filters.major);
  if (filters.condition !== 'con-all') params.set('condition', filters.condition);
  if (filters.school) params.set('schools', filters.school);
  const maxPrice = readMaxPrice(filters.maxPrice);
  if (maxPrice) params.set('maxPrice', maxPrice);
  if (filters.type) params.set('type', filters.type);
  const choice = SORT_CHOICES.find((c) => c.value === filters.sort);
  // 'Latest' is the default without a term, 'Best match' the default with one: neither needs a param.
  const isDefault = filters.sort === (term ? 'best' : 'latest');
  if (choice?.sort && !isDefault) {
    params.set('sort', choice.sort);
    params.set('order', choice.order);
  }
  params.set('status', filters.status || DEFAULT_STATUS);
  return params;
}

/** The API query of GET /api/listing/get (its schema refuses unknown keys, so only these are sent). */
export function filtersToApiQuery(filters: SearchFilters): Record<string, string> {
  const query: Record<string, string> = { status: filters.status || DEFAULT_STATUS };
  if (filters.searchTerm.trim()) query.searchTerm = filters.searchTerm.trim();
  if (filters.courseNumber.trim()) query.courseNumber = filters.courseNumber.trim();
  if (filters.subject) query.subject = filters.subject;
  if (filters.major) query.major = filters.major;
  if (filters.condition !== 'con-all') query.condition = filters.condition;
  if (filters.school) query.schools = filters.school;
  const maxPrice = readMaxPrice(filters.maxPrice);
  if (maxPrice) query.maxPrice = maxPrice;
  if (filters.type) query.type = filters.type;
  const choice = SORT_CHOICES.find((c) => c.value === filters.sort);
  if (choice?.sort) {
    query.sort = choice.sort;
    query.order = choice.order;
  }
  return query;
}

/**
 * What the result count says: the search's total from the server ("23 books for calculus", "1,000+
 * books" past the server's counting cap, "1 book"), or without one, what is shown ("9+ books").
 */
export type ResultCount =
  { total: number; isCapped: boolean } | { shown: number; hasMore: boolean };

export function resultCountText(count: ResultCount, term: string): string {
  const [n, isMore] =
    'total' in count ? [count.total, count.isCapped] : [count.shown, count.hasMore];
  const books = `${formatCount(n)}${isMore ? '+' : ''} ${n === 1 && !isMore ? 'book' : 'books'}`;
  return term.trim() ? `${books} for ${term.trim()}` : books;
}
