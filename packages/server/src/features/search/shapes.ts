import { and, eq, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { parseCourseCode } from '@campus-books/common/course';
import { toIsbn13 } from '@campus-books/common/isbn';
import {
  DEFAULT_SEARCH_LIMIT,
  type ListingSearchQuery,
} from '@campus-books/common/listing.schemas';
import type { Db } from '../../db/database';
import { textLiteral } from '../../db/literal';
import { listings } from '../../db/schema';
import type { SearchCaches } from './caches';
import { p, type Build } from './placeholders';
import { matchTerm, type TermMatch, type TermResolved } from './terms';

/**
 * How many listings, the first in the search's order, a term's first page is looked for in before
 * the words' index is asked (isWindowWorthTrying; statements.ts): ~3 ms of PostgreSQL's time when
 * they hold too few, against the 10–15 ms a common subject's sort of every match took.
 */
export const ORDER_WINDOW = 2000;

/** A listing for sale (a literal: the unfiltered search's statement has no parameter). */
const activeListing = () => sql`${listings.status} = ${textLiteral('active')}`;

/**
 * A search as the server runs it: the API's query, and for a partner campus's part of a consortium
 * search (consortium-search.ts) `isPartnerSearch`, which leaves out listings on hold for a buyer
 * (another campus's students see only what they could still ask for).
 */
export type SearchQuery = ListingSearchQuery & { isPartnerSearch?: boolean };

/** The search's filters: the names of those it has (its shape), their values, and their SQL. */
function filtersOf(query: SearchQuery): {
  key: string;
  values: Record<string, unknown>;
  where: () => SQL[];
} {
  const values: Record<string, unknown> = {};
  // Both public status values (active_or_none, active) mean active: sold listings never show in search.
  const builders: Build[] = [activeListing];
  const add = (name: string, value: unknown, build: Build) => {
    values[name] = value;
    builders.push(build);
  };
  if (query.condition && query.condition !== 'con-all') {
    add('condition', query.condition, () => eq(listings.condition, p('condition')));
  }
  const schools = query.schools ?? [];
  if (schools.length > 0) {
    add('schools', schools, () => sql`${listings.schools} @> ${p('schools')}::text[]`);
  }
  if (query.major) add('major', query.major, () => eq(listings.major, p('major')));
  if (query.courseNumber) {
    add('courseNumber', query.courseNumber, () => eq(listings.courseNumber, p('courseNumber')));
  }
  if (query.subject) add('subject', query.subject, () => eq(listings.subject, p('subject')));
  if (query.type && query.type !== 'all')
    add('type', query.type, () => eq(listings.type, p('type')));
  // The price an alert's maxPrice is held against too (alerts.delivery.ts): the regular price.
  if (query.maxPrice !== undefined) {
    add('maxPrice', query.maxPrice, () => lte(listings.regularPrice, p('maxPrice')));
  }
  if (query.isPartnerSearch) {
    // Pending, as the card shows it (common/display.ts, isPending): held until the hold ends.
    add('unheld', true, () => isNull(listings.heldUntil));
  }
  return { key: Object.keys(values).join(','), values, where: () => builders.map((b) => b()) };
}

/**
 * What a term means besides words of a name. An ISBN in any form is that book and nothing else (no
 * name is an ISBN): one equality on listings_isbn_idx, no vocabulary lookup. A course code with a
 * subject ('ECON 101', 'econ101', 'ECON-101') is that course first (listings_subject_course_idx),
 * then the names matching its words.
 */
export function exactMatchOf(
  term: string,
): { kind: 'isbn' | 'course'; values: Record<string, unknown>; where: Build } | null {
  const isbn = toIsbn13(term);
  if (isbn) return { kind: 'isbn', values: { isbn }, where: () => eq(listings.isbn, p('isbn')) };
  const course = parseCourseCode(term);
  if (course?.subject) {
    return {
      kind: 'course',
      values: { exactSubject: course.subject, exactCourseNumber: course.courseNumber },
      where: () =>
        and(
          eq(listings.subject, p('exactSubject')),
          eq(listings.courseNumber, p('exactCourseNumber')),
        )!,
    };
  }
  return null;
}

/** The groups of a search's results; `all` is every match (what the total counts). */
export type SearchGroups =
  | { kind: 'single'; single: Build; all: Build }
  | { kind: 'tiers'; best: Build; rest: Build; all: Build };

/**
 * A search as its shape (`key`, what its statements are built from), its values, and how PostgreSQL
 * should plan its statements: with each search's values (`custom`: a term's words, a filter's
 * values change the best plan), or once for all (`generic`: the unfiltered search, whose later pages
 * only move the OFFSET; a book's ISBN; a common term's walk).
 */
export interface SearchShape {
  key: string;
  values: Record<string, unknown>;
  groups: SearchGroups;
  plan: 'custom' | 'generic';
  /**
   * The first page of the first group (the best matches, or the only group) is looked for first
   * among the ORDER_WINDOW first listings in the search's order, and only if they hold too few of
   * them, by the words' index (statements.ts).
   */
  firstPageInWindow?: boolean;
  /** The term's resolution, when it came from or went to the terms' cache (search-listings.ts). */
  resolved?: TermResolved;
}

const single = (where: Build): SearchGroups => ({ kind: 'single', single: where, all: where });

/**
 * The search as groups of results (what docs/search-query-plans.md explains). Without a term, or with
 * a sort asked for, one group in the asked order. With a term and no sort, the best matches come
 * first: `best` and `rest` (the other matches) are each in date order, so each is an index walk that
 * stops at the page, or a few GIN-index hits sorted; nothing ranks every match.
 */
export async function searchShape(
  db: Db,
  query: SearchQuery,
  caches: SearchCaches = {},
): Promise<SearchShape> {
  const filters = filtersOf(query);
  const order = `${query.sort ?? 'createdAt'}:${query.order ?? 'desc'}`;
  // Set once the term is matched; every shape built after carries it.
  const matched: { resolved?: TermResolved } = {};
  const shape = (
    term: string,
    values: Record<string, unknown>,
    groups: SearchGroups,
    plan: SearchShape['plan'] = filters.key === '' && (term === '' || term === 'isbn')
      ? 'generic'
      : 'custom',
  ): SearchShape => ({
    key: `filters=${filters.key};term=${term};order=${order}`,
    values: { ...filters.values, ...values },
    groups,
    plan,
    ...(matched.resolved ? { resolved: matched.resolved } : {}),
  });
  const term = query.searchTerm?.trim();
  if (!term)
    return shape(
      '',
      {},
      single(() => and(...filters.where())!),
    );
  const exact = exactMatchOf(term);
  if (exact?.kind === 'isbn') {
    return shape(
      'isbn',
      exact.values,
      single(() => and(...filters.where(), exact.where())!),
    );
  }
  const match = await matchTerm(db, term, caches.terms, caches.generation?.());
  matched.resolved = match.resolved;
  const { matches, best } = match;
  if (exact) {
    const values = { ...exact.values, ...match.values };
    // The course first, then the names matching the term's words (a null subject is no match).
    if (!matches) {
      return shape(
        'course',
        values,
        single(() => and(...filters.where(), exact.where())!),
      );
    }
    const all = () => and(...filters.where(), or(exact.where(), matches()))!;
    if (query.sort) return shape(`course+${match.key}`, values, single(all));
    return shape(`course+${match.key}:tiers`, values, {
      kind: 'tiers',
      best: () => and(...filters.where(), exact.where())!,
      rest: () => and(...filters.where(), matches(), sql`NOT coalesce(${exact.where()}, false)`)!,
      all,
    });
  }
  if (!matches)
    return shape(
      match.key,
      match.values,
      single(() => sql`false`),
    );
  const all = () => and(...filters.where(), matches())!;
  if (match.matchesByWalk && filters.key === '' && isWalkCheaper(match, query)) {
    // The page walks the order's index, whatever the words; the count may still use the GIN index.
    const walk = match.matchesByWalk;
    const page = () => and(...filters.where(), walk())!;
    return shape(
      `${match.key}:walk`,
      match.values,
      { kind: 'single', single: page, all },
      'generic',
    );
  }
  const firstPageInWindow = filters.key === '' && isWindowWorthTrying(match, query);
  if (query.sort || !best)
    return { ...shape(match.key, match.values, single(all)), firstPageInWindow };
  return {
    ...shape(`${match.key}:tiers`, match.values, {
      kind: 'tiers',
      best: () => and(...filters.where(), matches(), best())!,
      rest: () => and(...filters.where(), matches(), sql`NOT (${best()})`)!,
      all,
    }),
    firstPageInWindow,
  };
}

/**
 * Whether a term's first page is worth looking for among the ORDER_WINDOW first listings in the
 * search's order. PostgreSQL estimates a term's matches as if its words were independent, which a
 * subject's words are not ('organic' and 'chemistry' come together): it guessed 1 row for 2,824
 * best matches at 100k listings, and fetched and sorted them all (14 ms) where walking the date
 * index finds the page in ~450 rows (1.5 ms). The vocabulary's counts bound the matches from above
 * (the rarest word's names); when even that bound is too few for a page among the window's
 * listings, the window is not tried.
 */
function isWindowWorthTrying(match: TermMatch, query: ListingSearchQuery): boolean {
  if (!match.firstAtMost || match.firstAtMost.catalogueRows <= 0) return false;
  if ((query.startIndex ?? 0) > 0) return false;
  const { matches, catalogueRows } = match.firstAtMost;
  return matches * ORDER_WINDOW >= (query.limit ?? DEFAULT_SEARCH_LIMIT) * catalogueRows;
}

/**
 * Whether a term's page is found more cheaply by walking the index of the search's order (date or
 * price) and keeping the names that match, than by the GIN index of the words and a sort of every
 * match: the walk reads about (startIndex + limit) × catalogue / matches rows, the GIN way `matches`
 * rows. PostgreSQL weighs the same with each search's values, at ~0.07 ms of planning for every
 * search (docs/performance.md); a term common enough by the vocabulary's own counts is instead one
 * plan for all its searches, written so that only the walk can serve it.
 */
function isWalkCheaper(match: TermMatch, query: ListingSearchQuery): boolean {
  if (!match.estimate || match.estimate.catalogueRows <= 0) return false;
  const { matches, catalogueRows } = match.estimate;
  const rowsNeeded = (query.startIndex ?? 0) + (query.limit ?? DEFAULT_SEARCH_LIMIT);
  return matches * matches >= rowsNeeded * catalogueRows;
}
