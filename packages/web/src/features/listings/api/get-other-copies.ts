import { OTHER_COPIES_LIMIT } from '@campus-books/common/constants';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * "Other copies on campus": GET /api/listing/get?searchTerm={isbn}&limit=OTHER_COPIES_LIMIT, the
 * book's active listings (the server renders the listing page with this answer).
 */
export const otherCopiesQueryOptions = (isbn13: string) =>
  queryOptions({
    queryKey: queryKeys.listings.sameIsbn(isbn13),
    queryFn: ({ signal }) =>
      apiCall('GET /api/listing/get', {
        query: { searchTerm: isbn13, limit: OTHER_COPIES_LIMIT },
        signal,
      }),
  });
