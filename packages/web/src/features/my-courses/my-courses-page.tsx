import type { UnreadCourse } from '@campus-books/common/course-list';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Button } from '../../components/ui/button';
import { RequestError } from '../../components/ui/request-error';
import { paths, signInPath } from '../../config/paths';
import { useSession } from '../../lib/session';
import { AddCoursesForm } from './add-courses-form';
import { useCourseBooks, useNotifyForCourses } from './api/my-courses-api';
import { CourseBooks, termSummary } from './course-books';
import { ImportCalendar } from './import-calendar';
import { useCourseList, type AddResult } from './use-course-list';

/** What the last add or import did, in words: added, already there, and what was not read. */
function AddReport({ result }: { result: (AddResult & { events?: number }) | null }) {
  if (!result) return null;
  const added = result.added.map((c) => c.label).join(', ');
  return (
    <div role="status" className="rounded-lg bg-slate-50 p-3 text-sm text-slate-800">
      {result.events !== undefined ? <p>Read {result.events} events of your schedule.</p> : null}
      <p>{added ? `Added ${added}.` : 'No new course added.'}</p>
      {result.duplicates.length > 0 ? (
        <p>Already in your list: {result.duplicates.join(', ')}.</p>
      ) : null}
      {result.unknown.length > 0 ? (
        <>
          <p className="mt-1 font-semibold">Not read:</p>
          <ul className="list-disc pl-5">
            {result.unknown.map((u: UnreadCourse) => (
              <li key={u.text}>
                {u.text}: {u.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/** /my-courses: a student's courses this term, the books each needs, and one alert for the rest. */
export default function MyCoursesPage() {
  const { user } = useSession();
  const list = useCourseList();
  const slugs = list.courses.map((c) => c.slug);
  const books = useCourseBooks(slugs);
  const notify = useNotifyForCourses();
  const [report, setReport] = useState<(AddResult & { events?: number }) | null>(null);

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-6">
      <PageTitle title="My courses" />
      <h1 className="text-2xl font-bold text-slate-900">My courses</h1>
      <p className="text-slate-700">
        Add this term’s courses once and see every book they need, the cheapest copies on campus,
        and what the term costs here.
        {list.isSignedIn ? null : ' Your list stays on this device until you sign in.'}
      </p>

      <section
        aria-label="Add courses"
        className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-4"
      >
        <AddCoursesForm onAdd={list.add} onResult={setReport} />
        <ImportCalendar onAdd={list.add} onResult={setReport} />
        <AddReport result={report} />
      </section>

      {list.courses.length > 0 ? (
        <section aria-labelledby="my-course-list" className="flex flex-col gap-2">
          <h2 id="my-course-list" className="text-lg font-bold text-slate-900">
            Your courses
          </h2>
          <ul className="flex flex-wrap gap-2">
            {list.courses.map((course) => (
              <li
                key={course.slug}
                className="inline-flex items-center gap-1 rounded-full border border-slate-300 bg-white pl-3"
              >
                <span className="text-sm font-semibold text-slate-900">{course.label}</span>
                <button
                  type="button"
                  aria-label={`Remove ${course.label}`}
                  onClick={() => void list.remove(course).catch(() => undefined)}
                  className="inline-flex size-11 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100"
                >
                  <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4">
                    <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" />
                  </svg>
                </button>
              </li>
            ))}
          </ul>
          <RequestError error={list.error} />
        </section>
      ) : list.isLoading ? null : (
        <p className="text-slate-700">No course yet: add your first above.</p>
      )}

      {books.data && list.courses.length > 0 ? (
        <>
          <p className="rounded-lg bg-brand-50 p-3 font-semibold text-slate-900">
            {termSummary(books.data.summary)}
          </p>
          <div className="flex flex-col gap-2">
            {user ? (
              <Button
                variant="secondary"
                isLoading={notify.isPending}
                loadingText="Creating alerts…"
                onClick={() => notify.mutate(slugs)}
                className="self-start"
              >
                Notify me for everything
              </Button>
            ) : (
              <p className="text-sm text-slate-700">
                <Link
                  to={signInPath(paths.myCourses)}
                  className="inline-flex min-h-11 items-center font-semibold"
                >
                  Sign in to be notified
                </Link>{' '}
                when the missing books are listed.
              </p>
            )}
            {notify.data ? (
              <div role="status" className="text-sm text-slate-800">
                <p>{notify.data.message}</p>
                {notify.data.skipped.length > 0 ? (
                  <ul className="list-disc pl-5">
                    {notify.data.skipped.map((s) => (
                      <li key={s.label}>Not created: {s.label}</li>
                    ))}
                  </ul>
                ) : null}
                {notify.data.created.length > 0 || notify.data.existing > 0 ? (
                  <Link
                    to={paths.profileAlerts}
                    className="inline-flex min-h-11 items-center font-semibold"
                  >
                    See your alerts
                  </Link>
                ) : null}
              </div>
            ) : null}
            <RequestError error={notify.error} />
          </div>
          <CourseBooks answer={books.data} />
        </>
      ) : null}
      <RequestError error={books.error} />
    </div>
  );
}
