import {
  and,
  arrayContains,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  inArray,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { SCHOOL_FLAGS } from '@campus-books/common/campus';
import { parseCourseCode } from '@campus-books/common/course';
import { toIsbn13 } from '@campus-books/common/isbn';
import {
  DEFAULT_SEARCH_LIMIT,
  type ListingSearchQuery,
} from '@campus-books/common/listing.schemas';
import type { Db } from '../../db/database';
import { preparedOnce } from '../../db/prepared';
import { rowsOf } from '../../db/rows';
import { listings, listingWords, type ListingRow } from '../../db/schema';
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
  words: { word: string; exact: boolean; others: string[] }[];
}

/** Caches a search may use (listings.cache.ts); without them every search asks the database. */
export interface SearchCaches {
  terms?: WriteInvalidatedCache<TermResolution>;
  /** A search's capped total (SEARCH_COUNT_CAP), by searchTotalKey. */
  totals?: WriteInvalidatedCache<number>;
  /** Makes the caches fit to answer from (another server may have written since): before any use. */
  ensureFresh?: () => Promise<void>;
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
  const rows = await rowsOf<{ term: string; word: string | null; kind: 'exact' | 'other' | null }>(
    db,
    sql`
    SELECT t.w AS term, v.word, v.kind
    FROM listing_name_words(${term}) AS t(w)
    LEFT JOIN LATERAL (
      SELECT word, 'exact' AS kind FROM ${listingWords} WHERE word = t.w
      UNION ALL
      (SELECT word, 'other' FROM ${listingWords}
        WHERE word LIKE '%' || t.w || '%' AND word <> t.w
        ORDER BY word LIMIT ${CONTAINING_PER_WORD})
      UNION ALL
      (SELECT word, 'other' FROM ${listingWords}
        WHERE word % t.w AND similarity(word, t.w) >= ${WORD_SIMILARITY}
          AND word NOT LIKE '%' || t.w || '%'
        ORDER BY similarity(word, t.w) DESC, word LIMIT ${SIMILAR_PER_WORD})
    ) AS v ON true`,
  );
  const words = new Map<string, TermResolution['words'][number]>();
  for (const row of rows) {
    const entry = words.get(row.term) ?? { word: row.term, exact: false, others: [] };
    words.set(row.term, entry);
    if (row.kind === 'exact') entry.exact = true;
    else if (row.word !== null) entry.others.push(row.word);
  }
  return { words: [...words.values()] };
}

const lowerName = sql`lower(${listings.name})`;
const contains = (text: string) =>
  sql`${lowerName} LIKE lower(${`%${escapeLike(text)}%`}) ESCAPE '\\'`;
/** The words of the name (a stored generated column with the GIN index listings_name_words_idx). */
const nameWords = listings.nameWords;
const textArray = (values: string[]) => sql`ARRAY[${sql.join(values, sql`, `)}]::text[]`;

/**
 * How a term matches a name, and which names match it best.
 *
 * A term with words of 3+ letters or digits matches the names that hold, for every such word, that
 * word or a vocabulary word containing or resembling it, in any order: 'calclus' finds 'Calculus II',
 * 'chemistry orgnic' finds 'Organic Chemistry', 'calc' finds both. The best matches hold every word
 * exactly (and the term as typed, if it has shorter words: 'calculus ii'). Both are array operators
 * on the GIN index of the names' words, whose statistics tell the planner how common a word is, so it
 * walks the date index for a common word and the GIN index for a rare one.
 *
 * A term without such words ('%', 'c_p', 'ii') matches the names containing it as typed (LIKE, with
 * `%`, `_` and `\` as plain characters; the trigram index listings_name_trgm_idx serves it).
 *
 * `matches` null: nothing can match. `best` null: nothing matches better than the rest.
 */
export interface TermMatch {
  matches: SQL | null;
  best: SQL | null;
}

export async function matchTerm(
  db: Db,
  term: string,
  caches: SearchCaches = {},
): Promise<TermMatch> {
  const key = term.toLowerCase();
  const { words } = await (caches.terms
    ? caches.terms.getOrLoad(key, () => resolveTerm(db, key))
    : resolveTerm(db, key));
  if (words.length === 0) return { matches: contains(term), best: null };
  const alternatives = words.map((w) => (w.exact ? [w.word, ...w.others] : w.others));
  if (alternatives.some((a) => a.length === 0)) return { matches: null, best: null };
  const matches = and(...alternatives.map((a) => sql`${nameWords} && ${textArray(a)}`))!;
  if (!words.every((w) => w.exact)) return { matches, best: null };
  const hasShortWords = key.split(/[^\p{L}\p{N}]+/u).some((w) => w.length > 0 && w.length < 3);
  const exact = sql`${nameWords} @> ${textArray(words.map((w) => w.word))}`;
  // Nothing but the exact words can match (no other word contains or resembles them): one group.
  if (!hasShortWords && words.every((w) => w.others.length === 0)) return { matches, best: null };
  return { matches, best: hasShortWords ? and(exact, contains(term))! : exact };
}

function filtersOf(query: ListingSearchQuery): SQL[] {
  // Both public status values (active_or_none, active) mean active: sold listings never show in search.
  const filters: (SQL | undefined)[] = [eq(listings.status, 'active')];
  if (query.condition && query.condition !== 'con-all')
    filters.push(eq(listings.condition, query.condition));
  const schools = SCHOOL_FLAGS.filter((flag) => query[flag] === 'true');
  if (schools.length > 0) filters.push(arrayContains(listings.schools, schools));
  if (query.major) filters.push(eq(listings.major, query.major));
  if (query.courseNumber) filters.push(eq(listings.courseNumber, query.courseNumber));
  if (query.subject) filters.push(eq(listings.subject, query.subject));
  if (query.type && query.type !== 'all') filters.push(eq(listings.type, query.type));
  // The price an alert's maxPrice is held against too (alerts.delivery.ts): the regular price.
  if (query.maxPrice !== undefined) filters.push(lte(listings.regularPrice, query.maxPrice));
  return filters.filter((f): f is SQL => f !== undefined);
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
export function exactMatchOf(term: string): { kind: 'isbn' | 'course'; where: SQL } | null {
  const isbn = toIsbn13(term);
  if (isbn) return { kind: 'isbn', where: eq(listings.isbn, isbn) };
  const course = parseCourseCode(term);
  if (course?.subject) {
    return {
      kind: 'course',
      where: and(
        eq(listings.subject, course.subject),
        eq(listings.courseNumber, course.courseNumber),
      )!,
    };
  }
  return null;
}

/** A group of results: the listings matching `where`, in the search's order. */
type Group = SQL | undefined;

/** The groups of a search's results; `all` is every match (what the total counts). */
type SearchGroups =
  | { kind: 'single'; single: Group; all: Group }
  | { kind: 'tiers'; best: Group; rest: Group; all: Group };

const single = (where: Group): SearchGroups => ({ kind: 'single', single: where, all: where });

/**
 * The search as groups of results (what docs/search-query-plans.md explains). Without a term, or with
 * a sort asked for, one group in the asked order. With a term and no sort, the best matches come
 * first: `best` and `rest` (the other matches) are each in date order, so each is an index walk that
 * stops at the page, or a few GIN-index hits sorted; nothing ranks every match.
 */
export async function searchGroups(
  db: Db,
  query: ListingSearchQuery,
  caches: SearchCaches = {},
): Promise<SearchGroups> {
  const filters = filtersOf(query);
  const term = query.searchTerm?.trim();
  if (!term) return single(and(...filters));
  const exact = exactMatchOf(term);
  if (exact?.kind === 'isbn') return single(and(...filters, exact.where));
  const { matches, best } = await matchTerm(db, term, caches);
  if (exact) {
    // The course first, then the names matching the term's words (a null subject is no match).
    if (!matches) return single(and(...filters, exact.where));
    const all = and(...filters, or(exact.where, matches));
    if (query.sort) return single(all);
    return {
      kind: 'tiers',
      best: and(...filters, exact.where),
      rest: and(...filters, matches, sql`NOT coalesce(${exact.where}, false)`),
      all,
    };
  }
  if (!matches) return single(sql`false`);
  if (query.sort || !best) return single(and(...filters, matches));
  return {
    kind: 'tiers',
    best: and(...filters, matches, best),
    rest: and(...filters, matches, sql`NOT (${best})`),
    all: and(...filters, matches),
  };
}

/**
 * One page of a group. Past the first page, the rows skipped are only counted on the index (the ids
 * of the page, then those rows): at startIndex=900 an index-only walk of 909 entries and 9 row
 * fetches, 0.4 ms at 100k listings, instead of fetching 909 rows to drop 900 (1.6 ms).
 */
function pageOf(db: Db, query: ListingSearchQuery, where: Group, offset: number, limit: number) {
  const order = orderOf(query);
  if (offset === 0) {
    return db
      .select()
      .from(listings)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .$dynamic();
  }
  const ids = db
    .select({ id: listings.id })
    .from(listings)
    .where(where)
    .orderBy(...order)
    .offset(offset)
    .limit(limit);
  return db
    .select()
    .from(listings)
    .where(inArray(listings.id, ids))
    .orderBy(...order)
    .$dynamic();
}

/** The statements of a search's first step, as run (for EXPLAIN: docs/search-query-plans.md). */
export async function searchStatements(db: Db, query: ListingSearchQuery) {
  const offset = query.startIndex ?? 0;
  const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
  const groups = await searchGroups(db, query);
  return groups.kind === 'single'
    ? [pageOf(db, query, groups.single, offset, limit)]
    : [pageOf(db, query, groups.best, offset, limit), pageOf(db, query, groups.rest, 0, limit)];
}

/**
 * Matches are counted up to this many: the count stops there, so it costs at most an index walk of
 * this length whatever the catalogue's size (a full count at 100k listings would walk them all).
 */
export const SEARCH_COUNT_CAP = 1000;

/** One page of a search and how many listings the whole search matches (at most the cap). */
export interface SearchPage {
  rows: ListingRow[];
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

/** Counts the matches of `where` up to one past the cap. */
async function countMatches(db: Db, where: Group): Promise<number> {
  const upToCap = db
    .select({ id: listings.id })
    .from(listings)
    .where(where)
    .limit(SEARCH_COUNT_CAP + 1)
    .as('m');
  const [row] = await db.select({ n: count() }).from(upToCap);
  return row?.n ?? 0;
}

/**
 * The page's rows carry the search's capped count as one more column, so a page and its total are one
 * round trip: PostgreSQL runs the uncorrelated subquery once (an InitPlan), before the first row.
 */
const totalOf = (where: Group) =>
  sql<number>`(SELECT count(*) FROM (SELECT 1 FROM ${listings} WHERE ${where ?? sql`true`} LIMIT ${SEARCH_COUNT_CAP + 1}) AS m)`.mapWith(
    Number,
  );
const pageFields = (all: Group) => ({ ...getTableColumns(listings), searchTotal: totalOf(all) });

/** The rows without the total column, and the total (null when no row came back to carry it). */
function splitTotal(found: (ListingRow & { searchTotal: number })[]): {
  rows: ListingRow[];
  counted: number | null;
} {
  const rows = found.map(({ searchTotal: _total, ...row }) => row);
  return { rows, counted: found[0]?.searchTotal ?? null };
}

/**
 * The unfiltered first page (the home page's and /search's opening query, the most frequent search)
 * with the count of active listings: one named prepared statement per order and database handle,
 * which neither drizzle nor PostgreSQL builds or plans again. Only here: other searches' plans depend
 * on their values (a common word walks the date index, a rare one the GIN index), which a prepared
 * statement's generic plan would lose.
 */
function firstPage(db: Db, query: ListingSearchQuery, limit: number) {
  const name = `listings_first_page_counted_${query.sort ?? 'createdAt'}_${query.order ?? 'desc'}`;
  const active = eq(listings.status, 'active');
  const statement = preparedOnce(db, name, (n) =>
    db
      .select(pageFields(active))
      .from(listings)
      .where(active)
      .orderBy(...orderOf(query))
      .limit(sql.placeholder('limit'))
      .prepare(n),
  );
  return statement.execute({ limit });
}

/**
 * A later page of the unfiltered search (a student paging through everything for sale), as the first
 * page is: one prepared statement per order, the page's ids walked on the index (see pageOf) and the
 * count of active listings beside them. Its only values are the page's place and size.
 */
function laterPage(db: Db, query: ListingSearchQuery, offset: number, limit: number) {
  const name = `listings_later_page_counted_${query.sort ?? 'createdAt'}_${query.order ?? 'desc'}`;
  const active = eq(listings.status, 'active');
  const statement = preparedOnce(db, name, (n) => {
    const ids = db
      .select({ id: listings.id })
      .from(listings)
      .where(active)
      .orderBy(...orderOf(query))
      .offset(sql.placeholder('offset'))
      .limit(sql.placeholder('limit'));
    return db
      .select(pageFields(active))
      .from(listings)
      .where(inArray(listings.id, ids))
      .orderBy(...orderOf(query))
      .prepare(n);
  });
  return statement.execute({ offset, limit });
}

/** One page of a group with the capped count of `all` (see totalOf). */
async function pageWithTotal(
  db: Db,
  query: ListingSearchQuery,
  where: Group,
  all: Group,
  offset: number,
  limit: number,
) {
  const order = orderOf(query);
  if (offset === 0) {
    return splitTotal(
      await db
        .select(pageFields(all))
        .from(listings)
        .where(where)
        .orderBy(...order)
        .limit(limit),
    );
  }
  const ids = db
    .select({ id: listings.id })
    .from(listings)
    .where(where)
    .orderBy(...order)
    .offset(offset)
    .limit(limit);
  return splitTotal(
    await db
      .select(pageFields(all))
      .from(listings)
      .where(inArray(listings.id, ids))
      .orderBy(...order),
  );
}

/** The first page of the active copies of one book (listings_isbn_idx), as a prepared statement. */
function isbnFirstPage(db: Db, query: ListingSearchQuery, isbn: string, limit: number) {
  const name = `listings_isbn_first_page_${query.order ?? 'desc'}`;
  const statement = preparedOnce(db, name, (n) =>
    db
      .select()
      .from(listings)
      .where(and(eq(listings.status, 'active'), eq(listings.isbn, sql.placeholder('isbn'))))
      .orderBy(...orderOf(query))
      .limit(sql.placeholder('limit'))
      .prepare(n),
  );
  return statement.execute({ isbn, limit });
}

/** The page of listings a search asks for, and how many it matches in all. */
export async function searchListings(
  db: Db,
  query: ListingSearchQuery,
  caches: SearchCaches = {},
): Promise<SearchPage> {
  const offset = query.startIndex ?? 0;
  const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
  const unfiltered = filtersOf(query).length === 1 && !query.searchTerm?.trim();
  if (unfiltered) {
    const { rows, counted } = splitTotal(
      offset === 0 ? await firstPage(db, query, limit) : await laterPage(db, query, offset, limit),
    );
    // No row: no active listing at all, or a page past the last one (counted apart).
    if (counted !== null || offset === 0) return { rows, ...cappedTotal(counted ?? 0) };
    return { rows, ...cappedTotal(await countMatches(db, eq(listings.status, 'active'))) };
  }
  const isbn = toIsbn13(query.searchTerm?.trim() ?? '');
  if (isbn && offset === 0 && filtersOf(query).length === 1 && !query.sort) {
    // A scanned or typed ISBN with no other filter: one prepared statement; the page holds every copy
    // unless it is full.
    const rows = await isbnFirstPage(db, query, isbn, limit);
    const counted =
      rows.length < limit
        ? rows.length
        : await countMatches(db, and(eq(listings.status, 'active'), eq(listings.isbn, isbn)));
    return { rows, ...cappedTotal(counted) };
  }
  await caches.ensureFresh?.();
  const groups = await searchGroups(db, query, caches);
  if (offset === 0 && isbn) {
    // An ISBN names a handful of copies: the first page almost always holds them all, and then its
    // length is the total, with no count to run.
    const rows = await pageOfGroups(db, query, groups, offset, limit);
    const counted = rows.length < limit ? rows.length : await countMatches(db, groups.all);
    return { rows, ...cappedTotal(counted) };
  }
  const first = groups.kind === 'single' ? groups.single : groups.best;
  let rows: ListingRow[] | undefined;
  const pageAndTotal = async () => {
    const page = await pageWithTotal(db, query, first, groups.all, offset, limit);
    rows = await pageOfGroups(db, query, groups, offset, limit, page.rows);
    // An empty first group (past the end, or only other matches) carried no total: count apart.
    return page.counted ?? (await countMatches(db, groups.all));
  };
  // Counting is most of a search's work in the database when many listings match (a common word:
  // up to SEARCH_COUNT_CAP rows fetched to count them, ~1.2 ms at 100k listings against 0.2 ms for
  // the page), and the total changes only with a write: it is kept until one.
  const counted = caches.totals
    ? await caches.totals.getOrLoad(searchTotalKey(query), pageAndTotal)
    : await pageAndTotal();
  // The total came from the cache (or from the same search counting at this moment): the page alone.
  rows ??= await pageOfGroups(db, query, groups, offset, limit);
  return { rows, ...cappedTotal(counted) };
}

async function pageOfGroups(
  db: Db,
  query: ListingSearchQuery,
  groups: SearchGroups,
  offset: number,
  limit: number,
  /** The page of the first group, when already fetched. */
  first?: ListingRow[],
): Promise<ListingRow[]> {
  if (groups.kind === 'single') return first ?? pageOf(db, query, groups.single, offset, limit);
  const best = first ?? (await pageOf(db, query, groups.best, offset, limit));
  if (best.length === limit) return best;
  // The page runs past the best matches: how many there are, then the others after them.
  let bestCount = offset + best.length;
  if (best.length === 0 && offset > 0) {
    const upToOffset = db
      .select({ id: listings.id })
      .from(listings)
      .where(groups.best)
      .limit(offset)
      .as('b');
    const [row] = await db.select({ n: count() }).from(upToOffset);
    bestCount = row?.n ?? 0;
  }
  const rest = await pageOf(
    db,
    query,
    groups.rest,
    Math.max(0, offset - bestCount),
    limit - best.length,
  );
  return [...best, ...rest];
}
