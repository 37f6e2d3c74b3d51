import {
  COURSE_LIST_MESSAGES,
  MAX_MY_COURSES,
  courseKey,
  parseCourseList,
  type UnreadCourse,
} from '@campus-books/common/course-list';
import { toMyCourse, type MyCourse } from '@campus-books/common/my-courses.schemas';
import { useEffect, useRef, useState } from 'react';
import { useSession } from '../../lib/session';
import { useAddCourses, useRemoveCourse, useSavedCourses } from './api/my-courses-api';

/** A visitor's courses, on the device until they sign in (then merged into their account). */
export const LOCAL_COURSES_KEY = 'campus-books:my-courses';

function readLocal(): MyCourse[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(LOCAL_COURSES_KEY) ?? '[]') as unknown;
    if (!Array.isArray(parsed)) return [];
    const read = parseCourseList(parsed.filter((s) => typeof s === 'string').join(', '));
    return read.courses
      .slice(0, MAX_MY_COURSES)
      .map((c) => toMyCourse({ ...c, subject: c.subject! }));
  } catch {
    return [];
  }
}

function writeLocal(courses: MyCourse[]): void {
  try {
    if (courses.length === 0) localStorage.removeItem(LOCAL_COURSES_KEY);
    else localStorage.setItem(LOCAL_COURSES_KEY, JSON.stringify(courses.map((c) => c.slug)));
  } catch {
    // A browser that keeps nothing (private mode, quota): the list lasts as long as the page.
  }
}

export interface AddResult {
  added: MyCourse[];
  unknown: UnreadCourse[];
  duplicates: string[];
}

/**
 * The student's course list: in their account when signed in, else on the device. A visitor's list
 * is sent to the account once they are signed in (the server adds what is new), then forgotten here.
 */
export function useCourseList() {
  const { user, isLoading: isSessionLoading } = useSession();
  const isSignedIn = Boolean(user);
  const saved = useSavedCourses(isSignedIn);
  const addCourses = useAddCourses();
  const removeCourse = useRemoveCourse();
  const [local, setLocal] = useState<MyCourse[]>(() => readLocal());
  const merging = useRef(false);

  useEffect(() => {
    if (!isSignedIn || local.length === 0 || merging.current) return;
    merging.current = true;
    addCourses
      .mutateAsync(local.map((c) => c.label).join(', '))
      .then(() => {
        writeLocal([]);
        setLocal([]);
      })
      .catch(() => undefined)
      .finally(() => {
        merging.current = false;
      });
  }, [isSignedIn, local, addCourses]);

  const courses = isSignedIn ? (saved.data ?? []) : local;

  async function add(text: string): Promise<AddResult> {
    if (isSignedIn) {
      const answer = await addCourses.mutateAsync(text);
      return { added: answer.added, unknown: answer.unknown, duplicates: answer.duplicates };
    }
    const read = parseCourseList(text);
    const have = new Set(local.map((c) => c.slug));
    const fresh = read.courses
      .map((c) => toMyCourse({ ...c, subject: c.subject! }))
      .filter((c) => !have.has(c.slug));
    if (local.length + fresh.length > MAX_MY_COURSES) throw new Error(COURSE_LIST_MESSAGES.tooMany);
    const next = [...local, ...fresh];
    writeLocal(next);
    setLocal(next);
    return {
      added: fresh,
      unknown: read.unknown,
      duplicates: [
        ...read.duplicates,
        ...read.courses
          .filter((c) => have.has(courseKey(c)))
          .map((c) => `${c.subject} ${c.courseNumber}`),
      ],
    };
  }

  async function remove(course: MyCourse): Promise<void> {
    if (isSignedIn) {
      await removeCourse.mutateAsync(course.slug);
      return;
    }
    const next = local.filter((c) => c.slug !== course.slug);
    writeLocal(next);
    setLocal(next);
  }

  return {
    courses,
    isSignedIn,
    isLoading: isSessionLoading || (isSignedIn && saved.isPending),
    error: saved.error ?? removeCourse.error,
    add,
    remove,
  };
}
