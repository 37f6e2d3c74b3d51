import { and, asc, count, desc, eq, fillPlaceholders, lte, or, sql, type SQL } from 'drizzle-orm';
import { SCHOOL_FLAGS } from '@campus-books/common/campus';
import { parseCourseCode } from '@campus-books/common/course';
import { toIsbn13 } from '@campus-books/common/isbn';
import { HOME_RECENT_COUNT, PAGE_SIZE } from '@campus-books/common/constants';
import {
  DEFAULT_SEARCH_LIMIT,
  type ListingSearchQuery,
} from '@campus-books/common/listing.schemas';
import type { Database, Db } from '../../db/database';
import { textLiteral } from '../../db/literal';
import { preparedByShape } from '../../db/prepared';
import { rowsOf } from '../../db/rows';
import { catalogueVersion, listings, listingWords } from '../../db/schema';
import { listingJson } from './listing-json';
import type { WriteInvalidatedCache } from './search-cache';

/** Escapes LIKE's wildcards so a search for '%' or '_' matches those characters literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A term word resembles a vocabulary word at this pg_trgm similarity or more: one wrong, missing or
 * extra letter in a word of 7+ letters ('calclus' 0.55 against 'calculus', 'orgnic' 0.5 against
 * 'organic'), not a different short word ('law' 0.33 against 'lab').
 */
export const WORD_SIMILARITY = 0.45;
/** Vocabulary words tried per term word: the most similar ones, and the ones containing it. */
const SIMILAR_PER_WORD = 8;
const CONTAINING_PER_WORD = 200;

/**
 * What the vocabulary says about a term: for each of its words (as `listing_name_words` splits a
 * name, migration 0004: lower case, letters and digits, 3+ characters), whether some name holds it
 * as a whole word, and the other words of names that contain it ('precalculus' for 'calculus') or
 * resemble it ('calculus' for 'calclus').
 */
export interface TermResolution {
  words: {
    word: string;
    exact: boolean;
    others: string[];
    /** How many names hold the word itself, and how many the others (a name may count twice). */
    listings: number;
    othersListings: number;
  }[];
  /** PostgreSQL's estimate of the listings' rows (pg_class.reltuples; negative: never measured). */
  catalogueRows: number;
}

/** Caches a search may use (listings.cache.ts); without them every search asks the database. */
export interface SearchCaches {
  /** What the vocabulary says about a search term (both engines). */
  terms?: WriteInvalidatedCache<TermResolution>;
  /** A search's capped total (SEARCH_COUNT_CAP), by searchTotalKey (both engines). */
  totals?: WriteInvalidatedCache<number>;
  /** Changes whenever the caches are emptied. */
  generation?: () => number;
  /**
   * Whether what a search took from the caches since `generation` was fit to answer with, given the
   * catalogue version its page read: on PostgreSQL, when another app server changed the catalogue
   * since the caches were filled, it empties them; no when they were emptied since. Always yes on
   * the embedded engine (one process: its own writes empty them).
   */
  isFresh?: (catalogueVersion: number, generation: number) => boolean;
  /** The same, reading the catalogue's version (one SELECT of one row), when no row carried it. */
  ensureFresh?: (generation: number) => Promise<boolean>;
}

/**
 * What a search's total depends on: its filters and term, not its page or order. (Equal searches
 * give equal keys: the parsed query lists its keys in the schema's order.)
 */
export function searchTotalKey(query: ListingSearchQuery): string {
  const { startIndex: _start, limit: _limit, sort: _sort, order: _order, ...matching } = query;
  return JSON.stringify({ ...matching, searchTerm: matching.searchTerm?.trim() });
}

async function resolveTerm(db: Db, term: string): Promise<TermResolution> {
  // One statement: the term is split by the same function as the names. LIKE and `%` (pg_trgm's
  // similarity at its 0.3 default) walk listing_words_trgm_idx; the similarity floor refines.
  const rows = await rowsOf<{
    term: string;
    word: string | null;
    kind: 'exact' | 'other' | null;
    listings: number | null;
    catalogueRows: number;
  }>(
    db,
    sql`
    SELECT t.w AS term, v.word, v.kind, v.listings,
      (SELECT reltuples FROM pg_class WHERE oid = ${textLiteral('public.listings')}::regclass)::float8
        AS "catalogueRows"
    FROM listing_name_words(${term}) AS t(w)
    LEFT JOIN LATERAL (
      SELECT word, 'exact' AS kind, listings FROM ${listingWords} WHERE word = t.w
      UNION ALL
      (SELECT word, 'other', listings FROM ${listingWords}
        WHERE word LIKE '%' || t.w || '%' AND word <> t.w
        ORDER BY word LIMIT ${CONTAINING_PER_WORD})
      UNION ALL
      (SELECT word, 'other', listings FROM ${listingWords}
        WHERE word % t.w AND similarity(word, t.w) >= ${WORD_SIMILARITY}
          AND word NOT LIKE '%' || t.w || '%'
        ORDER BY similarity(word, t.w) DESC, word LIMIT ${SIMILAR_PER_WORD})
    ) AS v ON true`,
  );
  const words = new Map<string, TermResolution['words'][number]>();
  for (const row of rows) {
    const entry = words.get(row.term) ?? {
      word: row.term,
      exact: false,
      others: [],
      listings: 0,
      othersListings: 0,
    };
    words.set(row.term, entry);
    if (row.kind === 'exact') {
      entry.exact = true;
      entry.listings = Number(row.listings);
    } else if (row.word !== null) {
      entry.others.push(row.word);
      entry.othersListings += Number(row.listings);
    }
  }
  return { words: [...words.values()], catalogueRows: Number(rows[0]?.catalogueRows ?? -1) };
}

/**
 * A part of a search's SQL whose values are placeholders: it is built (by drizzle, the costly part of
 * a search for the server) once per shape and kept (searchStatement), and each search fills it with
 * its own values. `key` names the shape: equal keys build equal SQL.
 */
type Build = () => SQL;
const p = (name: string) => sql.placeholder(name);

const lowerName = sql`lower(${listings.name})`;
const contains: Build = () => sql`${lowerName} LIKE lower(${p('pattern')}) ESCAPE '\\'`;
/** The words of the name (a stored generated column with the GIN index listings_name_words_idx). */
const nameWords = listings.nameWords;

/**
 * How a term matches a name, and which names match it best.
 *
 * A term with words of 3+ letters or digits matches the names that hold, for every such word, that
 * word or a vocabulary word containing or resembling it, in any order: 'calclus' finds 'Calculus II',
 * 'chemistry orgnic' finds 'Organic Chemistry', 'calc' finds both. The best matches hold every word
 * exactly (and the term as typed, if it has shorter words: 'calculus ii'). Both are array operators
 * on the GIN index of the names' words, whose statistics tell the planner how common a word is, so it
 * walks the date index for a common word and the GIN index for a rare one (each statement is planned
 * with its values: SearchShape's `plan`), unless the vocabulary's counts already say the walk is
 * cheaper (isWalkCheaper).
 *
 * A term without such words ('%', 'c_p', 'ii') matches the names containing it as typed (LIKE, with
 * `%`, `_` and `\` as plain characters; the trigram index listings_name_trgm_idx serves it).
 *
 * `matches` null: nothing can match. `best` null: nothing matches better than the rest.
 */
export interface TermMatch {
  key: string;
  values: Record<string, unknown>;
  matches: Build | null;
  best: Build | null;
  /** `matches` written so that no index of the words can serve it (searchShape's walk). */
  matchesByWalk?: Build;
  /** How many names may match, as the vocabulary counts them (words taken as independent). */
  estimate?: { matches: number; catalogueRows: number };
}

export async function matchTerm(
  db: Db,
  term: string,
  caches: SearchCaches = {},
): Promise<TermMatch> {
  const key = term.toLowerCase();
  const { words, catalogueRows } = await (caches.terms
    ? caches.terms.getOrLoad(key, () => resolveTerm(db, key))
    : resolveTerm(db, key));
  if (words.length === 0) {
    return {
      key: 'contains',
      values: { pattern: `%${escapeLike(term)}%` },
      matches: contains,
      best: null,
    };
  }
  const alternatives = words.map((w) => (w.exact ? [w.word, ...w.others] : w.others));
  if (alternatives.some((a) => a.length === 0)) {
    return { key: 'nothing', values: {}, matches: null, best: null };
  }
  const values: Record<string, unknown> = {};
  alternatives.forEach((a, i) => (values[`w${i}`] = a));
  const matches = () =>
    and(...alternatives.map((_a, i) => sql`${nameWords} && ${p(`w${i}`)}::text[]`))!;
  const matchesByWalk = () =>
    and(
      ...alternatives.map((_a, i) => sql`coalesce(${nameWords}, '{}') && ${p(`w${i}`)}::text[]`),
    )!;
  const estimate = {
    matches: words.reduce(
      (n, w) => n * Math.min(1, ((w.exact ? w.listings : 0) + w.othersListings) / catalogueRows),
      catalogueRows,
    ),
    catalogueRows,
  };
  const shape = `words${words.length}`;
  const oneGroup = { key: shape, values, matches, best: null, matchesByWalk, estimate };
  if (!words.every((w) => w.exact)) return oneGroup;
  const hasShortWords = key.split(/[^\p{L}\p{N}]+/u).some((w) => w.length > 0 && w.length < 3);
  // Nothing but the exact words can match (no other word contains or resembles them): one group.
  if (!hasShortWords && words.every((w) => w.others.length === 0)) return oneGroup;
  values.exactWords = words.map((w) => w.word);
  const exact = () => sql`${nameWords} @> ${p('exactWords')}::text[]`;
  if (!hasShortWords) return { key: `${shape}:best`, values, matches, best: exact };
  values.pattern = `%${escapeLike(term)}%`;
  return {
    key: `${shape}:best-as-typed`,
    values,
    matches,
    best: () => and(exact(), contains())!,
  };
}

/** A listing for sale (a literal: the unfiltered search's statement has no parameter). */
const activeListing = () => sql`${listings.status} = ${textLiteral('active')}`;

/** The search's filters: the names of those it has (its shape), their values, and their SQL. */
function filtersOf(query: ListingSearchQuery): {
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
  const schools = SCHOOL_FLAGS.filter((flag) => query[flag] === 'true');
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
  return { key: Object.keys(values).join(','), values, where: () => builders.map((b) => b()) };
}

/**
 * Order of the results, always ending on the id so pages never overlap. The id's direction follows
 * the indexes (status, created_at DESC, id) and (status, regular_price, id) so either can be walked.
 */
function orderOf(query: ListingSearchQuery): SQL[] {
  const isDesc = (query.order ?? 'desc') === 'desc';
  if (query.sort === 'regularPrice') {
    return isDesc
      ? [desc(listings.regularPrice), desc(listings.id)]
      : [asc(listings.regularPrice), asc(listings.id)];
  }
  // NULLS LAST/FIRST spell out the index's order (created_at is never null) so it can be walked.
  return isDesc
    ? [sql`${listings.createdAt} DESC NULLS LAST`, asc(listings.id)]
    : [sql`${listings.createdAt} ASC NULLS FIRST`, desc(listings.id)];
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
type SearchGroups =
  | { kind: 'single'; single: Build; all: Build }
  | { kind: 'tiers'; best: Build; rest: Build; all: Build };

/**
 * A search as its shape (`key`, what its statements are built from), its values, and how PostgreSQL
 * should plan its statements: with each search's values (`custom`: a term's words, a filter's
 * values change the best plan), or once for all (`generic`: the unfiltered search, whose later pages
 * only move the OFFSET; a book's ISBN; a common term's walk).
 */
interface SearchShape {
  key: string;
  values: Record<string, unknown>;
  groups: SearchGroups;
  plan: 'custom' | 'generic';
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
  query: ListingSearchQuery,
  caches: SearchCaches = {},
): Promise<SearchShape> {
  const filters = filtersOf(query);
  const order = `${query.sort ?? 'createdAt'}:${query.order ?? 'desc'}`;
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
  const match = await matchTerm(db, term, caches);
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
  if (query.sort || !best) return shape(match.key, match.values, single(all));
  return shape(`${match.key}:tiers`, match.values, {
    kind: 'tiers',
    best: () => and(...filters.where(), matches(), best())!,
    rest: () => and(...filters.where(), matches(), sql`NOT (${best()})`)!,
    all,
  });
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

/**
 * Matches are counted up to this many: the count stops there, so it costs at most an index walk of
 * this length whatever the catalogue's size (a full count at 100k listings would walk them all).
 */
export const SEARCH_COUNT_CAP = 1000;

/** One page of a search and how many listings the whole search matches (at most the cap). */
export interface SearchPage {
  /** The page's listings, each as the JSON text of its answer (listing-json.ts). */
  listings: string[];
  /** The matches, counted up to SEARCH_COUNT_CAP. */
  total: number;
  /** More than SEARCH_COUNT_CAP listings match (`total` is then the cap). */
  isTotalCapped: boolean;
}

function cappedTotal(counted: number): Pick<SearchPage, 'total' | 'isTotalCapped'> {
  return counted > SEARCH_COUNT_CAP
    ? { total: SEARCH_COUNT_CAP, isTotalCapped: true }
    : { total: counted, isTotalCapped: false };
}

/**
 * The capped count of `where`, as a column: a page's rows carry it, so a page and its total are one
 * round trip (PostgreSQL runs the uncorrelated subquery once, an InitPlan, before the first row).
 */
const totalOf = (where: SQL) =>
  sql<number>`(SELECT count(*) FROM (SELECT 1 FROM ${listings} WHERE ${where} LIMIT ${sql.raw(String(SEARCH_COUNT_CAP + 1))}) AS m)`.mapWith(
    Number,
  );

/**
 * The catalogue's version (catalogue_version, migration 0008) as a page's rows read it: a search
 * answered partly from the caches checks with it that no write happened since they were filled
 * (listings.cache.ts), without a statement of its own.
 */
const catalogueVersionNow =
  sql<number>`(SELECT ${catalogueVersion.version} FROM ${catalogueVersion} WHERE ${catalogueVersion.id} = 1)`.mapWith(
    Number,
  );

type PageRow = { listing: string; catalogueVersion: number; searchTotal?: number };
interface Statement<R> {
  execute(values: Record<string, unknown>): Promise<R[]>;
}
/** A statement drizzle built (with placeholders), ready to prepare. */
interface Buildable<R> {
  prepare(name: string): Statement<R>;
  toSQL(): { sql: string; params: unknown[] };
}

/**
 * A page's size as its statement holds it. The sizes the app's own pages ask for are written into
 * the statement, so that a statement whose other values are constants too (the unfiltered first
 * page, the home page's and /search's opening query) has no parameter, and PostgreSQL plans it once
 * per connection; any other size is a placeholder, so a caller varying it adds no statements.
 */
type PageLimit = number | 'placeholder';
const LITERAL_LIMITS: readonly number[] = [PAGE_SIZE, HOME_RECENT_COUNT, DEFAULT_SEARCH_LIMIT];
const pageLimit = (limit: number): PageLimit =>
  LITERAL_LIMITS.includes(limit) ? limit : 'placeholder';
const limitOf = (limit: PageLimit) =>
  // A number from the list above, never from the request.
  (limit === 'placeholder' ? p('limit') : sql.raw(String(limit))) as unknown as number;

/**
 * One page of `where`, with the capped count of `total` when given. Past the first page, the rows
 * skipped are only counted on the index (the ids of the page, then those rows): at startIndex=900 an
 * index-only walk of 909 entries and 9 row fetches, 0.4 ms at 100k listings, instead of fetching 909
 * rows to drop 900 (1.6 ms). The ids are an array (`= ANY(ARRAY(…))`), which PostgreSQL plans in
 * two thirds of the time of an `IN` semi-join (0.10 against 0.15 ms). Placeholders `limit` and, on a
 * later page, `offset`.
 */
function buildPage(
  db: Db,
  query: ListingSearchQuery,
  where: SQL,
  isLater: boolean,
  total: SQL | null,
  limit: PageLimit,
): Buildable<PageRow> {
  const order = orderOf(query);
  const fields: Record<string, SQL> = {
    listing: listingJson,
    catalogueVersion: catalogueVersionNow,
  };
  if (total) fields.searchTotal = totalOf(total);
  if (!isLater) {
    return db
      .select(fields)
      .from(listings)
      .where(where)
      .orderBy(...order)
      .limit(limitOf(limit)) as unknown as Buildable<PageRow>;
  }
  const ids = db
    .select({ id: listings.id })
    .from(listings)
    .where(where)
    .orderBy(...order)
    .offset(p('offset'))
    .limit(limitOf(limit));
  return db
    .select(fields)
    .from(listings)
    .where(sql`${listings.id} = ANY(ARRAY(${ids}))`)
    .orderBy(...order) as unknown as Buildable<PageRow>;
}

/** Counts the matches of `where` up to `limit` (a placeholder: the cap plus one, or a page's start). */
function buildCount(db: Db, where: SQL): Buildable<{ n: number }> {
  const upTo = db.select({ id: listings.id }).from(listings).where(where).limit(p('limit')).as('m');
  return db.select({ n: count() }).from(upTo);
}

/**
 * A statement of a search, built once per shape and database handle and run with each search's
 * values (db/prepared.ts): named, so PostgreSQL parses it once per connection; which connections plan
 * it, and how often, is the handle's (SearchDatabase).
 */
function searchStatement<R>(db: Db, key: string, build: () => Buildable<R>): Statement<R> {
  return preparedByShape(db, key, (name) => build().prepare(name));
}

type GroupName = 'single' | 'best' | 'rest';
const groupOf = (groups: SearchGroups, name: GroupName): Build =>
  (groups as unknown as Record<GroupName, Build>)[name];

/**
 * The database as a search uses it: `db` for what a term's words are, and for its pages and counts
 * the connections that plan them as the shape's `plan` says (db/database.ts says why each mode needs
 * connections of its own).
 */
export type SearchDatabase = Pick<Database, 'db' | 'customPlanDb' | 'genericPlanDb'>;

const handleFor = (database: SearchDatabase, shape: SearchShape): Db =>
  shape.plan === 'generic' ? database.genericPlanDb : database.customPlanDb;

function runPage(
  database: SearchDatabase,
  query: ListingSearchQuery,
  shape: SearchShape,
  group: GroupName,
  offset: number,
  limit: number,
  withTotal = false,
): Promise<PageRow[]> {
  const db = handleFor(database, shape);
  const isLater = offset > 0;
  const size = pageLimit(limit);
  const key = `page:${group}:${isLater ? 'later' : 'first'}:${size}${withTotal ? ':total' : ''}|${shape.key}`;
  const statement = searchStatement<PageRow>(db, key, () =>
    buildPage(
      db,
      query,
      groupOf(shape.groups, group)(),
      isLater,
      withTotal ? shape.groups.all() : null,
      size,
    ),
  );
  return statement.execute({ ...shape.values, limit, ...(isLater ? { offset } : {}) });
}

/** How many listings of a group there are, counted up to `upTo`. */
async function runCount(
  database: SearchDatabase,
  shape: SearchShape,
  group: GroupName | 'all',
  upTo: number,
): Promise<number> {
  const db = handleFor(database, shape);
  const statement = searchStatement<{ n: number }>(db, `count:${group}|${shape.key}`, () =>
    buildCount(db, group === 'all' ? shape.groups.all() : groupOf(shape.groups, group)()),
  );
  const [row] = await statement.execute({ ...shape.values, limit: upTo });
  return row?.n ?? 0;
}

/** The statements of a search's first step with its values (for EXPLAIN: docs/search-query-plans.md). */
export async function searchStatements(db: Db, query: ListingSearchQuery) {
  const offset = query.startIndex ?? 0;
  const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
  const shape = await searchShape(db, query);
  const values = { ...shape.values, limit, offset };
  const filled = (built: Buildable<PageRow>) => ({
    toSQL: () => {
      const { sql: text, params } = built.toSQL();
      return { sql: text, params: fillPlaceholders(params, values) };
    },
  });
  const { groups } = shape;
  return groups.kind === 'single'
    ? [filled(buildPage(db, query, groups.single(), offset > 0, null, pageLimit(limit)))]
    : [
        filled(buildPage(db, query, groups.best(), offset > 0, null, pageLimit(limit))),
        filled(buildPage(db, query, groups.rest(), false, null, pageLimit(limit))),
      ];
}

/**
 * The page of listings a search asks for, and how many it matches in all. What the vocabulary says
 * about a term and a search's total come from the caches when they hold them; the page's own rows
 * then tell whether another app server changed the catalogue since (their catalogueVersion), and if
 * one did, the search runs once more on emptied caches.
 */
export async function searchListings(
  database: SearchDatabase,
  query: ListingSearchQuery,
  caches: SearchCaches = {},
): Promise<SearchPage> {
  const attempt = await searchOnce(database, query, caches);
  return attempt.isFresh ? attempt.page : (await searchOnce(database, query, caches)).page;
}

async function searchOnce(
  database: SearchDatabase,
  query: ListingSearchQuery,
  caches: SearchCaches,
): Promise<{ page: SearchPage; isFresh: boolean }> {
  const offset = query.startIndex ?? 0;
  const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
  const generation = caches.generation?.() ?? 0;
  const shape = await searchShape(database.db, query, caches);
  const first: GroupName = shape.groups.kind === 'single' ? 'single' : 'best';
  const answer = async (rows: PageRow[], counted: number) => {
    const version = rows[0]?.catalogueVersion;
    const isFresh =
      version === undefined
        ? ((await caches.ensureFresh?.(generation)) ?? true)
        : (caches.isFresh?.(version, generation) ?? true);
    const page = { listings: rows.map((row) => row.listing), ...cappedTotal(counted) };
    return { page, isFresh };
  };
  if (offset === 0 && toIsbn13(query.searchTerm?.trim() ?? '')) {
    // An ISBN names a handful of copies: the first page almost always holds them all, and then its
    // length is the total, with no count to run.
    const rows = await pageOfGroups(database, query, shape, offset, limit);
    const counted =
      rows.length < limit
        ? rows.length
        : await runCount(database, shape, 'all', SEARCH_COUNT_CAP + 1);
    return answer(rows, counted);
  }
  let rows: PageRow[] | undefined;
  const pageAndTotal = async () => {
    const firstRows = await runPage(database, query, shape, first, offset, limit, true);
    rows = await pageOfGroups(database, query, shape, offset, limit, firstRows);
    // An empty first group (past the end, or only other matches) carried no total: count apart.
    return (
      firstRows[0]?.searchTotal ?? (await runCount(database, shape, 'all', SEARCH_COUNT_CAP + 1))
    );
  };
  // Counting is most of a search's work in the database when many listings match (a common word:
  // up to SEARCH_COUNT_CAP rows fetched to count them, ~1.2 ms at 100k listings against 0.2 ms for
  // the page), and the total changes only with a write: it is kept until one.
  const counted = caches.totals
    ? await caches.totals.getOrLoad(searchTotalKey(query), pageAndTotal)
    : await pageAndTotal();
  // The total came from the cache (or from the same search counting at this moment): the page alone.
  rows ??= await pageOfGroups(database, query, shape, offset, limit);
  return answer(rows, counted);
}

async function pageOfGroups(
  database: SearchDatabase,
  query: ListingSearchQuery,
  shape: SearchShape,
  offset: number,
  limit: number,
  /** The page of the first group, when already fetched. */
  first?: PageRow[],
): Promise<PageRow[]> {
  const { groups } = shape;
  if (groups.kind === 'single')
    return first ?? runPage(database, query, shape, 'single', offset, limit);
  const best = first ?? (await runPage(database, query, shape, 'best', offset, limit));
  if (best.length === limit) return best;
  // The page runs past the best matches: how many there are, then the others after them.
  const bestCount =
    best.length === 0 && offset > 0
      ? await runCount(database, shape, 'best', offset)
      : offset + best.length;
  const rest = await runPage(
    database,
    query,
    shape,
    'rest',
    Math.max(0, offset - bestCount),
    limit - best.length,
  );
  return [...best, ...rest];
}
