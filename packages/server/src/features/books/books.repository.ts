import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { books, type BookRow } from '../../db/schema';
import type { FoundBook } from './book-lookup';

export async function findCachedBook(db: Db, isbn: string): Promise<BookRow | undefined> {
  const [row] = await db.select().from(books).where(eq(books.isbn, isbn));
  return row;
}

/** Stores what the providers answered (a hit, or a miss when `book` is null), replacing any older answer. */
export async function saveCachedBook(
  db: Db,
  isbn: string,
  book: FoundBook | null,
  provider: string | null,
  fetchedAt: Date,
): Promise<void> {
  const values = {
    found: book !== null,
    title: book?.title ?? null,
    authors: book?.authors ?? null,
    edition: book?.edition ?? null,
    publisher: book?.publisher ?? null,
    year: book?.year ?? null,
    coverUrl: book?.coverUrl ?? null,
    provider,
    fetchedAt,
  };
  await db
    .insert(books)
    .values({ isbn, ...values })
    .onConflictDoUpdate({
      target: books.isbn,
      set: { ...values, fetchedAt: sql`excluded.fetched_at` },
    });
}
