import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/my-courses/get: a signed-in student's list. */
export function useSavedCourses(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.myCourses.list,
    queryFn: ({ signal }) => apiCall('GET /api/my-courses/get', { signal }).then((a) => a.courses),
    enabled,
  });
}

/** POST /api/my-courses/add: codes typed or pasted (also a visitor's list, merged at sign-in). */
export function useAddCourses() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => apiCall('POST /api/my-courses/add', { body: { text } }),
    onSuccess: (answer) => client.setQueryData(queryKeys.myCourses.list, answer.courses),
  });
}

export function useRemoveCourse() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (course: string) => apiCall('POST /api/my-courses/remove', { body: { course } }),
    onSuccess: (answer) => client.setQueryData(queryKeys.myCourses.list, answer.courses),
  });
}

/** POST /api/my-courses/calendar: the courses of an .ics schedule (nothing is stored). */
export function useReadCalendar() {
  return useMutation({
    mutationFn: (calendar: string) =>
      apiCall('POST /api/my-courses/calendar', { body: { calendar } }),
  });
}

/** GET /api/my-courses/books: the books of the courses, their cheapest copies and prices. */
export function useCourseBooks(slugs: string[]) {
  const courses = slugs.join(',');
  return useQuery({
    queryKey: queryKeys.myCourses.books(courses),
    queryFn: ({ signal }) => apiCall('GET /api/my-courses/books', { query: { courses }, signal }),
    enabled: slugs.length > 0,
    placeholderData: keepPreviousData,
  });
}

export function useNotifyForCourses() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (courses: string[]) =>
      apiCall('POST /api/my-courses/notify', { body: { courses } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.alerts }),
  });
}

/** GET /api/my-courses/suggest: the catalogue's course numbers of a subject, for completion. */
export function useCourseSuggestions(subject: string | null, number: string) {
  return useQuery({
    queryKey: queryKeys.myCourses.suggest(subject, number),
    queryFn: ({ signal }) =>
      apiCall('GET /api/my-courses/suggest', {
        query: { subject: subject ?? '', number },
        signal,
      }).then((a) => a.courses),
    enabled: subject !== null,
    staleTime: 60_000,
  });
}
