import type { CourseAnswer } from '@campus-books/common/book.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/course/{code}: a course's books on campus. */
export const courseQueryOptions = (code: string) =>
  queryOptions({
    queryKey: queryKeys.course.one(code),
    queryFn: ({ signal }) =>
      apiRequest<CourseAnswer>(`/api/course/${encodeURIComponent(code)}`, { signal }),
  });

export function useCourse(code: string | undefined) {
  return useQuery({ ...courseQueryOptions(code ?? ''), enabled: Boolean(code) });
}
