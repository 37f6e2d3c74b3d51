import type {
  MyCourse,
  CourseBooksAnswer,
  NotifyAnswer,
} from '@campus-books/common/my-courses.schemas';
import type { UnreadCourse } from '@campus-books/common/course-list';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface AddCoursesAnswer {
  courses: MyCourse[];
  added: MyCourse[];
  unknown: UnreadCourse[];
  duplicates: string[];
}

/** GET /api/my-courses/get: a signed-in student's list. */
export function useSavedCourses(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.myCourses.list,
    queryFn: ({ signal }) =>
      apiRequest<{ courses: MyCourse[] }>('/api/my-courses/get', { signal }).then((a) => a.courses),
    enabled,
  });
}

/** POST /api/my-courses/add: codes typed or pasted (also a visitor's list, merged at sign-in). */
export function useAddCourses() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      apiRequest<AddCoursesAnswer>('/api/my-courses/add', { method: 'POST', body: { text } }),
    onSuccess: (answer) => client.setQueryData(queryKeys.myCourses.list, answer.courses),
  });
}

export function useRemoveCourse() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (course: string) =>
      apiRequest<{ courses: MyCourse[] }>('/api/my-courses/remove', {
        method: 'POST',
        body: { course },
      }),
    onSuccess: (answer) => client.setQueryData(queryKeys.myCourses.list, answer.courses),
  });
}

/** POST /api/my-courses/calendar: the courses of an .ics schedule (nothing is stored). */
export function useReadCalendar() {
  return useMutation({
    mutationFn: (calendar: string) =>
      apiRequest<{ courses: MyCourse[]; unknown: UnreadCourse[]; events: number }>(
        '/api/my-courses/calendar',
        { method: 'POST', body: { calendar } },
      ),
  });
}

/** GET /api/my-courses/books: the books of the courses, their cheapest copies and prices. */
export function useCourseBooks(slugs: string[]) {
  const courses = slugs.join(',');
  return useQuery({
    queryKey: queryKeys.myCourses.books(courses),
    queryFn: ({ signal }) =>
      apiRequest<CourseBooksAnswer>(
        `/api/my-courses/books?courses=${encodeURIComponent(courses)}`,
        { signal },
      ),
    enabled: slugs.length > 0,
    placeholderData: keepPreviousData,
  });
}

export function useNotifyForCourses() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (courses: string[]) =>
      apiRequest<NotifyAnswer>('/api/my-courses/notify', { method: 'POST', body: { courses } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.alerts }),
  });
}

/** GET /api/my-courses/suggest: the catalogue's course numbers of a subject, for completion. */
export function useCourseSuggestions(subject: string | null, number: string) {
  return useQuery({
    queryKey: queryKeys.myCourses.suggest(subject, number),
    queryFn: ({ signal }) =>
      apiRequest<{ courses: string[] }>(
        `/api/my-courses/suggest?subject=${encodeURIComponent(subject ?? '')}&number=${encodeURIComponent(number)}`,
        { signal },
      ).then((a) => a.courses),
    enabled: subject !== null,
    staleTime: 60_000,
  });
}
