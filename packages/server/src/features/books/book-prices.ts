import { eq, sql } from 'drizzle-orm';
import { SOLD_PRICE_MIN_COUNT, type BookPrices } from '@campus-books/common/book.schemas';
import type { Db } from '../../db/database';
import { listings } from '../../db/schema';

/**
 * This campus's copies of a book: the active ones (count and price range) and what sold copies went
 * for (a median, only from SOLD_PRICE_MIN_COUNT sales up, so no single sale can be read from it).
 * One pass over the ISBN's rows (listings_isbn_idx).
 */
export async function findBookPrices(db: Db, isbn: string): Promise<BookPrices> {
  const active = sql`${listings.status} = 'active'`;
  const sold = sql`${listings.status} = 'sold'`;
  const [row] = await db
    .select({
      activeCount: sql<number>`count(*) FILTER (WHERE ${active})::int`,
      activeMin: sql<string | null>`min(${listings.regularPrice}) FILTER (WHERE ${active})`,
      activeMax: sql<string | null>`max(${listings.regularPrice}) FILTER (WHERE ${active})`,
      soldCount: sql<number>`count(*) FILTER (WHERE ${sold})::int`,
      soldMedian: sql<
        number | null
      >`percentile_cont(0.5) WITHIN GROUP (ORDER BY ${listings.regularPrice}) FILTER (WHERE ${sold})`,
    })
    .from(listings)
    .where(eq(listings.isbn, isbn));
  const soldCount = row?.soldCount ?? 0;
  const money = (v: string | number | null | undefined) =>
    v === null || v === undefined ? null : Math.round(Number(v) * 100) / 100;
  return {
    isbn,
    active: {
      count: row?.activeCount ?? 0,
      min: money(row?.activeMin),
      max: money(row?.activeMax),
    },
    sold: {
      count: soldCount,
      median: soldCount >= SOLD_PRICE_MIN_COUNT ? money(row?.soldMedian) : null,
    },
  };
}
