import type { BookLookupAnswer } from '@campus-books/common/book.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/books/{isbn}: what the providers know of a book (signed-in sellers). */
export function lookupBook(isbn13: string, signal?: AbortSignal): Promise<BookLookupAnswer> {
  return apiCall('GET /api/books/:isbn', { params: { isbn: isbn13 }, signal });
}

/** GET /api/books/{isbn}/prices: this campus's copies of a book (the price hint). */
export const bookPricesQueryOptions = (isbn13: string) =>
  queryOptions({
    queryKey: queryKeys.bookPrices(isbn13),
    queryFn: ({ signal }) =>
      apiCall('GET /api/books/:isbn/prices', { params: { isbn: isbn13 }, signal }),
  });

export function useBookPrices(isbn13: string | null) {
  return useQuery({ ...bookPricesQueryOptions(isbn13 ?? ''), enabled: Boolean(isbn13) });
}

/** POST /api/books/{isbn}/cover: the publisher's cover as one of the seller's images. */
export function importPublisherCover(isbn13: string): Promise<{ url: string }> {
  return apiCall('POST /api/books/:isbn/cover', { params: { isbn: isbn13 } });
}

/** GET /api/course/{code}/prices?title=: the price hint of a title in a course (no ISBN yet). */
export function useCourseTitlePrices(course: string | null, title: string) {
  return useQuery({
    queryKey: queryKeys.course.titlePrices(course, title),
    queryFn: ({ signal }) =>
      apiCall('GET /api/course/:code/prices', {
        params: { code: course ?? '' },
        query: { title },
        signal,
      }),
    enabled: Boolean(course) && title.length >= 3,
  });
}
