import { toIsbn13 } from '@campus-books/common/isbn';
import { DEFAULT_SEARCH_LIMIT } from '@campus-books/common/listing.schemas';
import { cappedTotalKey, searchTotalKey, type SearchCaches } from './caches';
import { searchShape, type SearchQuery, type SearchShape } from './shapes';
import type { TermResolved } from './terms';
import {
  runCount,
  runPage,
  SEARCH_COUNT_CAP,
  type GroupName,
  type PageRow,
  type SearchDatabase,
} from './statements';

/** One page of a search and how many listings the whole search matches (at most the cap). */
export interface SearchPage {
  /** The page's listings, each as the JSON text of its answer (db/listing-json-trigger.ts). */
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
 * The page of listings a search asks for, and how many it matches in all. What the vocabulary says
 * about a term and a search's total come from the caches when they hold them; the page's own rows
 * then tell whether another app server changed the catalogue since (their catalogueVersion), and if
 * one did, the search runs once more on emptied caches.
 */
export async function searchListings(
  database: SearchDatabase,
  query: SearchQuery,
  caches: SearchCaches = {},
): Promise<SearchPage> {
  const attempt = await searchOnce(database, query, caches);
  return attempt.isFresh ? attempt.page : (await searchOnce(database, query, caches)).page;
}

async function searchOnce(
  database: SearchDatabase,
  query: SearchQuery,
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
    const isTermCurrent = isResolutionCurrent(shape.resolved, rows, isFresh, generation);
    if (!isTermCurrent) {
      // Resolved again on the next try, and counted again: this try's total came from the same words.
      caches.terms?.forget(shape.resolved!.key);
      caches.totals?.forget(searchTotalKey(query));
    }
    const page = { listings: rows.map((row) => row.listing), ...cappedTotal(counted) };
    return { page, isFresh: isFresh && isTermCurrent };
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
  const { cappedTotals } = caches;
  const cappedKey = cappedTotals ? cappedTotalKey(query, shape.values) : '';
  const pageAndTotal = async () => {
    // A total that reached the cap stays there while listings are only added (new listings for
    // sale, the common write): the page alone, unless its rows say a listing may have left since.
    const countedAt = cappedTotals?.peek(cappedKey);
    if (countedAt !== undefined) {
      const pageRows = await pageOfGroups(database, query, shape, offset, limit);
      if (pageRows[0]?.shrinkVersion === countedAt) {
        rows = pageRows;
        return SEARCH_COUNT_CAP + 1;
      }
    }
    const firstRows = await runPage(database, query, shape, first, offset, limit, true);
    rows = await pageOfGroups(database, query, shape, offset, limit, firstRows);
    const total = firstRows[0]?.searchTotal;
    // An empty first group (past the end, or only other matches) carried no total: count apart.
    if (total === undefined) return runCount(database, shape, 'all', SEARCH_COUNT_CAP + 1);
    // Counted in the statement that read the shrink version: true while it stands.
    if (total > SEARCH_COUNT_CAP) cappedTotals?.set(cappedKey, firstRows[0]!.shrinkVersion);
    return total;
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

/**
 * Whether the words a term was resolved to, kept since, are still what the vocabulary says: the
 * page's rows read the words version (migration 0033) it was resolved at. A page without rows read
 * no version: the resolution stands if it was made since the caches were last emptied and the
 * catalogue has not moved since (the caches' own check); otherwise the term is resolved again.
 */
function isResolutionCurrent(
  resolved: TermResolved | undefined,
  rows: PageRow[],
  isFresh: boolean,
  generation: number,
): boolean {
  if (!resolved || resolved.wordsVersion === null) return true;
  const row = rows[0];
  if (row) return row.wordsVersion === resolved.wordsVersion;
  return isFresh && resolved.generation === generation;
}

async function pageOfGroups(
  database: SearchDatabase,
  query: SearchQuery,
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
