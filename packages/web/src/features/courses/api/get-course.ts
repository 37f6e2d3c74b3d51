import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/course/{code}: a course's books on campus. */
export const courseQueryOptions = (code: string) =>
  queryOptions({
    queryKey: queryKeys.course.one(code),
    queryFn: ({ signal }) => apiCall('GET /api/course/:code', { params: { code }, signal }),
  });

export function useCourse(code: string | undefined) {
  return useQuery({ ...courseQueryOptions(code ?? ''), enabled: Boolean(code) });
}
