import { asc, count, desc, fillPlaceholders, sql, type SQL } from 'drizzle-orm';
import { HOME_RECENT_COUNT, PAGE_SIZE } from '@campus-books/common/constants';
import {
  DEFAULT_SEARCH_LIMIT,
  type ListingSearchQuery,
} from '@campus-books/common/listing.schemas';
import type { Database, Db } from '../../db/database';
import { preparedByShape } from '../../db/prepared';
import { textLiteral } from '../../db/literal';
import { listings } from '../../db/schema';
import { catalogueVersion } from '../../db/platform.schema';
import { listingJson } from '../listings/listing-json-answer';
import { p, type Build } from './placeholders';
import { ORDER_WINDOW, searchShape, type SearchGroups, type SearchShape } from './shapes';

/**
 * Matches are counted up to this many: the count stops there, so it costs at most an index walk of
 * this length whatever the catalogue's size (a full count at 100k listings would walk them all).
 */
export const SEARCH_COUNT_CAP = 1000;

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
 * (search/listing-caches.ts), without a statement of its own.
 */
const catalogueVersionNow =
  sql<number>`(SELECT ${catalogueVersion.version} FROM ${catalogueVersion} WHERE ${catalogueVersion.id} = 1)`.mapWith(
    Number,
  );

/**
 * The catalogue's shrink version (migration 0032) as a page's rows read it: a capped total kept since
 * it was counted is still true when it has not moved (search-listings.ts).
 */
const shrinkVersionNow =
  sql<number>`(SELECT ${catalogueVersion.shrinkVersion} FROM ${catalogueVersion} WHERE ${catalogueVersion.id} = 1)`.mapWith(
    Number,
  );

/**
 * The vocabulary's words version (migration 0033) as a page's rows read it: what a term was resolved
 * to, kept since, is still what the vocabulary says when it has not moved (search-listings.ts).
 */
const wordsVersionNow =
  sql<number>`(SELECT ${catalogueVersion.wordsVersion} FROM ${catalogueVersion} WHERE ${catalogueVersion.id} = 1)`.mapWith(
    Number,
  );

export type PageRow = {
  listing: string;
  catalogueVersion: number;
  shrinkVersion: number;
  wordsVersion: number;
  searchTotal?: number;
};

/** A page's columns: each listing's answer, the catalogue's three versions, and the capped count of `total`. */
function pageFields(total: SQL | null): Record<string, SQL> {
  const fields: Record<string, SQL> = {
    listing: listingJson,
    catalogueVersion: catalogueVersionNow,
    shrinkVersion: shrinkVersionNow,
    wordsVersion: wordsVersionNow,
  };
  if (total) fields.searchTotal = totalOf(total);
  return fields;
}
interface Statement<R> {
  execute(values: Record<string, unknown>): Promise<R[]>;
}
/** A statement drizzle built (with placeholders), ready to prepare. */
interface Buildable<R> {
  prepare(name: string): Statement<R>;
  toSQL(): { sql: string; params: unknown[] };
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
  const fields = pageFields(total);
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

/**
 * The first page of `where` looked for among the ORDER_WINDOW first active listings in the query's
 * order (an index walk), and only when they hold less than a page, found as buildPage finds it (the
 * words' index, and a sort). One statement: the window's page is kept (a materialized CTE) and
 * counted once; each branch after it runs only when its one-time condition holds, so a window that
 * holds the page costs a walk that stops at the page (shapes.ts, isWindowWorthTrying). The outer
 * query reads the chosen rows under the table's name, so `fields` and the order are written as for
 * the table.
 */
function buildWindowFirstPage(
  db: Db,
  query: ListingSearchQuery,
  where: SQL,
  total: SQL | null,
  limit: PageLimit,
): Buildable<PageRow> {
  const order = sql.join(orderOf(query), sql`, `);
  const size = limitOf(limit);
  const columns = sql`${listings.listingJson}, ${listings.createdAt}, ${listings.id}`;
  const chosen = sql`(
    WITH window_page AS MATERIALIZED (
      SELECT ${columns}
      FROM (SELECT * FROM ${listings} WHERE ${listings.status} = ${textLiteral('active')}
            ORDER BY ${order} LIMIT ${sql.raw(String(ORDER_WINDOW))}) AS ${listings}
      WHERE ${where} ORDER BY ${order} LIMIT ${size}
    )
    SELECT * FROM window_page WHERE (SELECT count(*) FROM window_page) >= ${size}
    UNION ALL
    SELECT * FROM (SELECT ${columns} FROM ${listings} WHERE ${where} ORDER BY ${order} LIMIT ${size}) AS found
    WHERE (SELECT count(*) FROM window_page) < ${size}
  ) AS ${listings}`;
  return db
    .select(pageFields(total))
    .from(chosen)
    .orderBy(...orderOf(query))
    .limit(size) as unknown as Buildable<PageRow>;
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

export type GroupName = 'single' | 'best' | 'rest';
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

export function runPage(
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
  const inWindow = group !== 'rest' && !isLater && shape.firstPageInWindow === true;
  const key = `page:${group}:${isLater ? 'later' : inWindow ? 'window' : 'first'}:${size}${withTotal ? ':total' : ''}|${shape.key}`;
  const statement = searchStatement<PageRow>(db, key, () => {
    const where = groupOf(shape.groups, group)();
    const total = withTotal ? shape.groups.all() : null;
    return inWindow
      ? buildWindowFirstPage(db, query, where, total, size)
      : buildPage(db, query, where, isLater, total, size);
  });
  return statement.execute({ ...shape.values, limit, ...(isLater ? { offset } : {}) });
}

/** How many listings of a group there are, counted up to `upTo`. */
export async function runCount(
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
  const size = pageLimit(limit);
  const first = (where: SQL) =>
    shape.firstPageInWindow && offset === 0
      ? buildWindowFirstPage(db, query, where, null, size)
      : buildPage(db, query, where, offset > 0, null, size);
  if (groups.kind === 'single') return [filled(first(groups.single()))];
  return [
    filled(first(groups.best())),
    filled(buildPage(db, query, groups.rest(), false, null, size)),
  ];
}
