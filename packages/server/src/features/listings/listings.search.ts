import { and, arrayContains, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { SCHOOL_FLAGS } from '@campus-books/common/campus';
import {
  DEFAULT_SEARCH_LIMIT,
  type ListingSearchQuery,
} from '@campus-books/common/listing.schemas';
import type { Db } from '../../db/database';
import { listings } from '../../db/schema';

/** Escapes LIKE's wildcards so a search for '%' or '_' matches those characters literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The name contains the term, or resembles it word for word (pg_trgm strict word similarity at its
 * default threshold of 0.5), so a typo still finds the book: 'calclus' scores 0.55 against
 * 'Calculus', under `<%`'s 0.6 but over `<<%`'s 0.5. Both sides read lower(name), the expression
 * of the GIN trigram index listings_name_trgm_idx, so either branch can use it.
 */
function nameMatches(term: string): SQL {
  const pattern = `%${escapeLike(term)}%`;
  return sql`(lower(${listings.name}) LIKE lower(${pattern}) ESCAPE '\\' OR ${term} <<% lower(${listings.name}))`;
}

function filtersOf(query: ListingSearchQuery): SQL[] {
  // Both public status values (active_or_none, active) mean active: sold listings never show in search.
  const filters: (SQL | undefined)[] = [eq(listings.status, 'active')];
  const term = query.searchTerm?.trim();
  if (term) filters.push(nameMatches(term));
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
  const term = query.searchTerm?.trim();
  const isDesc = (query.order ?? 'desc') === 'desc';
  if (query.sort === 'regularPrice') {
    return isDesc
      ? [desc(listings.regularPrice), desc(listings.id)]
      : [asc(listings.regularPrice), asc(listings.id)];
  }
  // NULLS LAST/FIRST spell out the index's order (created_at is never null) so it can be walked.
  const byDate = isDesc
    ? [sql`${listings.createdAt} DESC NULLS LAST`, asc(listings.id)]
    : [sql`${listings.createdAt} ASC NULLS FIRST`, desc(listings.id)];
  if (term && !query.sort) {
    return [sql`strict_word_similarity(${term}, lower(${listings.name})) DESC`, ...byDate];
  }
  return byDate;
}

/** The search as a query builder (also what docs/search-query-plans.md explains). */
export function searchListingsQuery(db: Db, query: ListingSearchQuery) {
  return db
    .select()
    .from(listings)
    .where(and(...filtersOf(query)))
    .orderBy(...orderOf(query))
    .offset(query.startIndex ?? 0)
    .limit(query.limit ?? DEFAULT_SEARCH_LIMIT);
}
