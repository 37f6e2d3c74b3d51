import { and, arrayContains, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { SCHOOL_FLAGS } from '@campus-books/common/campus';
import {
  DEFAULT_SEARCH_LIMIT,
  type ListingSearchQuery,
} from '@campus-books/common/listing.schemas';
import type { Db } from '../../db/database';
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
/** Words of the vocabulary tried per term word, the most similar first. */
const CANDIDATES_PER_WORD = 8;
/** Shorter term words are only matched as typed (a typo in 'ii' or 'of' means nothing). */
const MIN_FUZZY_WORD = 3;

/**
 * The words of a term as the vocabulary holds them (migration 0004 `listing_name_words`): lower case,
 * runs of letters and digits. Only letters and digits, so they are safe inside a LIKE or a regex.
 */
export function termWords(term: string): string[] {
  return [
    ...new Set(
      term
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length > 0),
    ),
  ];
}

/** A term word's vocabulary: the words that resemble it, and whether it is itself a word of a name. */
export interface WordResolution {
  similar: string[];
  known: boolean;
}

/** Caches a search may use (listings.cache.ts); without them every search asks the database. */
export interface SearchCaches {
  words?: WriteInvalidatedCache<WordResolution>;
}

async function resolveWord(db: Db, word: string): Promise<WordResolution> {
  // `%` (pg_trgm's similarity at its 0.3 default) walks listing_words_trgm_idx; the rest refines.
  const rows = await db
    .select({ word: listingWords.word })
    .from(listingWords)
    .where(
      sql`${listingWords.word} % ${word} AND similarity(${listingWords.word}, ${word}) >= ${WORD_SIMILARITY}`,
    )
    .orderBy(sql`similarity(${listingWords.word}, ${word}) DESC`, asc(listingWords.word))
    .limit(CANDIDATES_PER_WORD);
  const similar = rows.map((r) => r.word);
  return { similar, known: similar.includes(word) };
}

/**
 * Each term word with the vocabulary words that resemble it (the word itself always first), and
 * whether every word is itself in the vocabulary: if one is not, no name holds it as a whole word.
 */
async function resolveWords(db: Db, fuzzy: string[], caches: SearchCaches) {
  const resolutions = await Promise.all(
    fuzzy.map((w) =>
      caches.words ? caches.words.getOrLoad(w, () => resolveWord(db, w)) : resolveWord(db, w),
    ),
  );
  const candidates = new Map(
    fuzzy.map((w, i) => [w, [w, ...resolutions[i]!.similar.filter((s) => s !== w)]]),
  );
  return { candidates, allKnown: resolutions.every((r) => r.known) };
}

const lowerName = sql`lower(${listings.name})`;
const contains = (text: string) =>
  sql`${lowerName} LIKE lower(${`%${escapeLike(text)}%`}) ESCAPE '\\'`;

/**
 * How a term matches a name: the name contains the term as typed, or every word of 3+ characters of
 * the term (or a vocabulary word resembling it) in any order, so 'calclus' finds 'Calculus II' and
 * 'chemistry organic' finds 'Organic Chemistry'. `best` is true when every word of the term is a whole word of the name, and
 * those come first: 'calculus' lists 'Calculus II' before 'Precalculus'. Each branch is a LIKE or a
 * regex on lower(name), which the trigram index listings_name_trgm_idx serves.
 */
export interface TermMatch {
  matches: SQL;
  /** Null when no name can be a best match (a word of the term is in no name). */
  best: SQL | null;
}

export async function matchTerm(
  db: Db,
  term: string,
  caches: SearchCaches = {},
): Promise<TermMatch> {
  const words = termWords(term);
  let best: SQL | null = words.length
    ? and(...words.map((w) => sql`${lowerName} ~ ${`\\m${w}\\M`}`))!
    : null;
  // Short words ('ii', 'of') and non-words ('%') are matched as part of the term as typed.
  const fuzzy = words.filter((w) => w.length >= MIN_FUZZY_WORD);
  if (fuzzy.length === 0) return { matches: contains(term), best };
  const { candidates, allKnown } = await resolveWords(db, fuzzy, caches);
  if (!allKnown) best = null;
  const wordMatches = fuzzy.map((w) => {
    const alternatives = candidates.get(w)!.map(contains);
    return alternatives.length === 1
      ? alternatives[0]!
      : sql`(${sql.join(alternatives, sql` OR `)})`;
  });
  // A one-word term as typed is already the first alternative of its word.
  const asTyped = term.toLowerCase() === fuzzy[0] ? [] : [contains(term)];
  const everyWord = and(...wordMatches)!;
  return { matches: asTyped.length ? sql`(${asTyped[0]} OR ${everyWord})` : everyWord, best };
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
  if (query.type && query.type !== 'all') filters.push(eq(listings.type, query.type));
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
 * The search as query builders (also what docs/search-query-plans.md explains). Without a term, or
 * with a sort asked for, one query in the asked order. With a term and no sort, the best matches
 * come first: `best` and `rest` (the other matches) are each in date order, so each is an index walk
 * that stops at the page, or a few trigram-index hits sorted; nothing ranks every match.
 */
export async function searchListingsQueries(
  db: Db,
  query: ListingSearchQuery,
  caches: SearchCaches = {},
) {
  const term = query.searchTerm?.trim();
  const select = (where: (SQL | undefined)[]) =>
    db
      .select()
      .from(listings)
      .where(and(...filtersOf(query), ...where))
      .orderBy(...orderOf(query))
      .$dynamic();
  type Query = ReturnType<typeof select>;
  type Queries =
    | { kind: 'single'; single: () => Query }
    | { kind: 'tiers'; best: () => Query; rest: () => Query };
  let queries: Queries;
  if (!term) queries = { kind: 'single', single: () => select([]) };
  else {
    const { matches, best } = await matchTerm(db, term, caches);
    queries =
      query.sort || !best
        ? { kind: 'single', single: () => select([matches]) }
        : {
            kind: 'tiers',
            best: () => select([matches, best]),
            rest: () => select([matches, sql`NOT (${best})`]),
          };
  }
  return queries;
}

/** The statements of a search's first step, as run (for EXPLAIN: docs/search-query-plans.md). */
export async function searchStatements(db: Db, query: ListingSearchQuery) {
  const offset = query.startIndex ?? 0;
  const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
  const queries = await searchListingsQueries(db, query);
  return queries.kind === 'single'
    ? [queries.single().offset(offset).limit(limit)]
    : [queries.best().offset(offset).limit(limit), queries.rest().limit(limit)];
}

/** The page of listings a search asks for. */
export async function searchListings(
  db: Db,
  query: ListingSearchQuery,
  caches: SearchCaches = {},
): Promise<ListingRow[]> {
  const offset = query.startIndex ?? 0;
  const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
  const queries = await searchListingsQueries(db, query, caches);
  if (queries.kind === 'single') return queries.single().offset(offset).limit(limit);
  const best = await queries.best().offset(offset).limit(limit);
  if (best.length === limit) return best;
  // The page runs past the best matches: how many there are, then the others after them.
  let bestCount = offset + best.length;
  if (best.length === 0 && offset > 0) {
    const [row] = await db.select({ n: count() }).from(queries.best().limit(offset).as('b'));
    bestCount = row?.n ?? 0;
  }
  const rest = await queries
    .rest()
    .offset(Math.max(0, offset - bestCount))
    .limit(limit - best.length);
  return [...best, ...rest];
}
