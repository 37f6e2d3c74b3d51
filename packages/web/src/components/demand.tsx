import { queryOptions, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../config/paths';
import { apiCall } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

const plural = (n: number) => (n === 1 ? '1 student is' : `${n} students are`);

/** What a demand line is about: a book, else a course. */
interface DemandAsked {
  isbn?: string | null;
  subject?: string | null;
  courseNumber?: string | null;
}

/** What the demand line asks GET /api/alerts/demand: by the ISBN, else by the course. */
export function demandQuery({ isbn, subject, courseNumber }: DemandAsked): string | null {
  if (isbn) return `isbn=${encodeURIComponent(isbn)}`;
  if (subject && courseNumber) {
    return `subject=${encodeURIComponent(subject)}&courseNumber=${encodeURIComponent(courseNumber)}`;
  }
  return null;
}

/**
 * "N students are looking for books for ECON 101" / "N students want this book": counted from live
 * alerts and saves, shown from 1 up, never naming anyone.
 */
export function DemandLine(asked: DemandAsked) {
  const { isbn, subject, courseNumber } = asked;
  const query = demandQuery(asked);
  const { data } = useQuery({
    queryKey: queryKeys.demand(query),
    queryFn: ({ signal }) =>
      apiCall('GET /api/alerts/demand', {
        query: isbn ? { isbn } : { subject, courseNumber },
        signal,
      }),
    enabled: query !== null,
    staleTime: 60_000,
    retry: false,
  });
  if (!data || data.students < 1) return null;
  return (
    <p className="rounded-lg bg-brand-100 px-3 py-2 text-sm font-semibold text-brand-900">
      {isbn
        ? `${data.students === 1 ? '1 student wants' : `${data.students} students want`} this book`
        : `${plural(data.students)} looking for books for ${subject} ${courseNumber}`}
    </p>
  );
}

/** GET /api/alerts/most-wanted (the server renders the home page with its answer). */
export const mostWantedQueryOptions = queryOptions({
  queryKey: queryKeys.mostWanted,
  queryFn: ({ signal }) => apiCall('GET /api/alerts/most-wanted', { signal }),
  staleTime: 5 * 60_000,
  retry: false,
});

/** The home page's "Most wanted this week": courses with many alerts and few listings. */
export function MostWanted() {
  const { data } = useQuery(mostWantedQueryOptions);
  if (!data || data.courses.length === 0) return null;
  return (
    <section aria-labelledby="most-wanted" className="mt-12">
      <h2 id="most-wanted" className="text-2xl font-bold text-slate-900">
        Most wanted this week
      </h2>
      <p className="mt-1 text-slate-700">Students are waiting for books for these courses.</p>
      <ul className="mt-4 grid gap-3 sm:grid-cols-3">
        {data.courses.map((c) => (
          <li
            key={`${c.subject}-${c.courseNumber}`}
            className="rounded-xl border border-slate-200 bg-white p-4"
          >
            <Link
              to={paths.course(`${c.subject}-${c.courseNumber}`)}
              className="font-semibold text-slate-900"
            >
              {c.subject} {c.courseNumber}
            </Link>
            <p className="text-sm text-slate-700">
              {plural(c.students)} looking ·{' '}
              {c.listings === 0 ? 'no copies' : `${c.listings} listed`}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
