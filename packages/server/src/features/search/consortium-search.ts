import type { ListingCampus } from '@campus-books/common/consortium-listing';
import { DEFAULT_SEARCH_LIMIT } from '@campus-books/common/listing.schemas';
import { runInCampus } from '../../campuses/campus-context';
import type { ConsortiumPartner } from '../../campuses/campus-consortium';
import { keptUntilCatalogueChanges } from './catalogue-kept';
import type { ListingCaches } from './listing-caches';
import { searchListings as searchListingPage, type SearchPage } from './search-listings';
import type { SearchQuery } from './shapes';
import type { SearchDatabase } from './statements';

/**
 * How deep a search across partner campuses pages: each campus's first `startIndex + limit` results
 * are merged, so a page past this many would cost every campus that many rows; the merged total is
 * capped here (X-Total-Count-Capped), and a page past it is empty.
 */
export const CONSORTIUM_WINDOW = 300;

/** What a search across campuses runs with (search.service.ts). */
export interface ConsortiumSearchDeps {
  database: SearchDatabase;
  caches: ListingCaches;
}

type KeptPages = ReturnType<typeof keptUntilCatalogueChanges<SearchPage>>;

/**
 * Each campus's part of the searches across campuses, kept under that campus's keys and emptied by
 * its own catalogue's changes (catalogue-kept.ts reads the version of the campus it runs as): a
 * listing a partner adds, sells or hides is in the next answer of every campus sharing with it. The
 * merged answer itself is never kept, so its key needs no partner set. One per app (its caches).
 */
const keptPagesOf = new WeakMap<ListingCaches, KeptPages>();

function keptPages(caches: ListingCaches): KeptPages {
  let kept = keptPagesOf.get(caches);
  if (!kept) {
    kept = keptUntilCatalogueChanges<SearchPage>(caches, { maxEntries: 500, ttlMs: 10 * 60_000 });
    keptPagesOf.set(caches, kept);
  }
  return kept;
}

/**
 * The search as a partner campus runs it: without listings on hold, and with only the asked school
 * keys the partner has (schools are each campus's own); null when the filter names schools and none
 * is the partner's (the student narrowed to schools that campus does not have). Subject, course,
 * major, term and ISBN apply as they are.
 */
export function partnerQueryOf(
  query: SearchQuery,
  partnerSchools: readonly string[],
): SearchQuery | null {
  const asked = query.schools ?? [];
  if (asked.length === 0) return { ...query, isPartnerSearch: true };
  const schools = asked.filter((key) => partnerSchools.includes(key));
  return schools.length === 0 ? null : { ...query, schools, isPartnerSearch: true };
}

interface Ranked {
  text: string;
  /** The order's value (a date's time or a price) and the id, from the listing's own JSON. */
  value: number;
  id: string;
}

function ranked(text: string, sort: 'createdAt' | 'regularPrice'): Ranked {
  const listing = JSON.parse(text) as { _id: string; createdAt: string; regularPrice: number };
  const value = sort === 'createdAt' ? Date.parse(listing.createdAt) : listing.regularPrice;
  return { text, value, id: listing._id };
}

/**
 * The campuses' result lists merged in the search's order: each list stays in its own order (its
 * best matches first, for a term), and at each step the list whose next listing comes first in the
 * asked order (date or price, then id) gives it.
 */
function mergeInOrder(lists: Ranked[][], descending: boolean): Ranked[] {
  const next = lists.map(() => 0);
  const merged: Ranked[] = [];
  for (;;) {
    let pick = -1;
    for (let i = 0; i < lists.length; i += 1) {
      const head = lists[i]![next[i]!];
      if (!head) continue;
      const best = pick === -1 ? undefined : lists[pick]![next[pick]!]!;
      const comesFirst =
        !best ||
        (descending ? head.value > best.value : head.value < best.value) ||
        (head.value === best.value && (descending ? head.id > best.id : head.id < best.id));
      if (comesFirst) pick = i;
    }
    if (pick === -1) return merged;
    merged.push(lists[pick]![next[pick]!]!);
    next[pick]! += 1;
  }
}

/** A partner's listing JSON with its campus, first of its fields. */
export function markedWith(text: string, campus: ListingCampus): string {
  return `{"campus":${JSON.stringify(campus)},${text.slice(1)}`;
}

/**
 * One page of a search across the campus of the work at hand and its partners (consortium sharing,
 * decision 024): the same search run on each campus as that campus (`runInCampus`: its own handles,
 * under its own role, its own caches), the first `startIndex + limit` of each merged in the search's
 * order, the partners' listings marked with their campus. The total is the sum of the campuses'
 * totals, capped at CONSORTIUM_WINDOW.
 */
export async function searchAcrossCampuses(
  deps: ConsortiumSearchDeps,
  query: SearchQuery,
  partners: readonly ConsortiumPartner[],
): Promise<SearchPage> {
  const offset = query.startIndex ?? 0;
  const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
  const window = Math.min(offset + limit, CONSORTIUM_WINDOW);
  const empty: SearchPage = { listings: [], total: 0, isTotalCapped: false };
  const kept = keptPages(deps.caches);
  // Each campus's first `window` results: equal for every page up to it, so they are kept once.
  const firstOf = (wide: SearchQuery) => {
    const { startIndex: _start, ...rest } = wide;
    const first = { ...rest, limit: window };
    return kept(JSON.stringify(first), () => searchListingPage(deps.database, first, deps.caches));
  };
  const parts = await Promise.all([
    firstOf(query).then((page) => ({ page, campus: null as ListingCampus | null })),
    ...partners.map(async ({ work, campus }) => {
      const asked = partnerQueryOf(
        query,
        work.config.schools.map((school) => school.key),
      );
      const page = asked ? await runInCampus(work, () => firstOf(asked)) : empty;
      return { page, campus };
    }),
  ]);
  const sort = query.sort ?? 'createdAt';
  const lists = parts.map(({ page, campus }) =>
    page.listings.map((text) => ranked(campus ? markedWith(text, campus) : text, sort)),
  );
  const merged = mergeInOrder(lists, (query.order ?? 'desc') === 'desc');
  const counted = parts.reduce((sum, { page }) => sum + page.total, 0);
  return {
    listings: merged.slice(offset, offset + limit).map((entry) => entry.text),
    total: Math.min(counted, CONSORTIUM_WINDOW),
    isTotalCapped: counted > CONSORTIUM_WINDOW,
  };
}
