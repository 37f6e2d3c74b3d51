import type { StatisticsWeek } from '@campus-books/common/statistics.schemas';
import { useId, useState } from 'react';
import { PageTitle } from '../../components/page-title';
import { RequestError } from '../../components/ui/request-error';
import { Loading } from '../../components/ui/spinner';
import { useSession } from '../../lib/session';
import { useOperatorStatistics } from './api/statistics';

const PERIODS = [4, 12, 26, 52] as const;

const COLUMNS: { key: keyof StatisticsWeek; label: string }[] = [
  { key: 'listingsCreated', label: 'Listed' },
  { key: 'listingsSold', label: 'Sold' },
  { key: 'listingsExpired', label: 'Expired' },
  { key: 'activeSellers', label: 'Active sellers' },
  { key: 'activeBuyers', label: 'Active buyers' },
  { key: 'alertsCreated', label: 'Alerts created' },
  { key: 'alertNotificationsSent', label: 'Alert notices sent' },
  { key: 'searchesWithoutResults', label: 'Searches with no result' },
  { key: 'messages', label: 'Messages' },
];

const weekLabel = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });

/**
 * /statistics: what the campus does with the marketplace, week by week, and what students search
 * for that nobody sells. Aggregate counts only (the API answers 403 to anyone but a moderator).
 */
export default function StatisticsPage() {
  const { user } = useSession();
  const [weeks, setWeeks] = useState<number>(12);
  const periodId = useId();
  const statistics = useOperatorStatistics(weeks, Boolean(user?.isModerator));

  if (!user?.isModerator) {
    return (
      <div className="py-12 text-center">
        <PageTitle title="Campus statistics" />
        <h1 className="text-2xl font-bold text-slate-900">Campus statistics</h1>
        <p className="mt-2 text-slate-700">Only the campus moderators can open this page.</p>
      </div>
    );
  }

  const rows = statistics.data ? [...statistics.data.weeks].reverse() : [];
  return (
    <div className="space-y-8">
      <PageTitle title="Campus statistics" />
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Campus statistics</h1>
        <p className="mt-1 text-slate-700">
          Counts for the whole campus, per week (from Monday, UTC). No student&apos;s data is shown.
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={periodId} className="font-medium text-slate-800">
          Period
        </label>
        <select
          id={periodId}
          value={weeks}
          onChange={(event) => setWeeks(Number(event.target.value))}
          className="min-h-11 rounded-lg border border-slate-500 bg-white px-3"
        >
          {PERIODS.map((n) => (
            <option key={n} value={n}>
              Last {n} weeks
            </option>
          ))}
        </select>
      </div>
      {statistics.isPending ? <Loading /> : null}
      <RequestError error={statistics.error} />
      {statistics.data ? (
        <>
          <section aria-labelledby="weekly-title">
            <h2 id="weekly-title" className="text-xl font-bold text-slate-900">
              Week by week
            </h2>
            <div
              className="mt-3 overflow-x-auto rounded-lg border border-slate-300"
              tabIndex={0}
              role="region"
              aria-label="Weekly counts (scrolls sideways)"
            >
              <table className="min-w-full text-sm">
                <caption className="sr-only">
                  Listings, students and searches per week, the latest week first
                </caption>
                <thead className="bg-slate-100 text-left">
                  <tr>
                    <th scope="col" className="px-3 py-2 whitespace-nowrap">
                      Week of
                    </th>
                    {COLUMNS.map((column) => (
                      <th key={column.key} scope="col" className="px-3 py-2 text-right">
                        {column.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((week) => (
                    <tr key={week.weekStart} className="border-t border-slate-200">
                      <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap">
                        {weekLabel(week.weekStart)}
                      </th>
                      {COLUMNS.map((column) => (
                        <td key={column.key} className="px-3 py-2 text-right tabular-nums">
                          {week[column.key]}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="mt-2 text-sm text-slate-700">
              Active buyers are students who saved a listing or created an alert that week: sales
              happen outside the site.
            </p>
          </section>
          <section aria-labelledby="missed-title">
            <h2 id="missed-title" className="text-xl font-bold text-slate-900">
              Searches that found nothing
            </h2>
            <p className="mt-1 text-sm text-slate-700">
              What students looked for that nobody sells, over the period. Terms searched only once
              are left out.
            </p>
            {statistics.data.topMissedSearches.length === 0 ? (
              <p className="mt-2 text-slate-700">None yet.</p>
            ) : (
              <table className="mt-3 w-full max-w-md text-sm">
                <caption className="sr-only">Search terms without results and their count</caption>
                <thead className="text-left">
                  <tr>
                    <th scope="col" className="py-2 pr-3">
                      Term
                    </th>
                    <th scope="col" className="py-2 text-right">
                      Searches
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {statistics.data.topMissedSearches.map((missed) => (
                    <tr key={missed.term} className="border-t border-slate-200">
                      <td className="py-2 pr-3 wrap-anywhere">{missed.term}</td>
                      <td className="py-2 text-right tabular-nums">{missed.count}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      ) : null}
    </div>
  );
}
