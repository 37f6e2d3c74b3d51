import { useModerateRating, useReportedRatings } from '../../api/ratings-api';
import { RatingView } from '../../components/rating-view';
import { Button } from '../../components/ui/button';
import { RequestError } from '../../components/ui/request-error';
import { Loading } from '../../components/ui/spinner';

/** Ratings students reported: remove one (audit log) or dismiss its reports. */
export function ReportedRatings() {
  const reported = useReportedRatings();
  const moderate = useModerateRating();
  return (
    <section aria-labelledby="reported-ratings-title">
      <h2 id="reported-ratings-title" className="text-xl font-bold text-slate-900">
        Reported ratings
      </h2>
      {reported.isPending ? <Loading /> : null}
      <RequestError error={reported.error} />
      {reported.data && reported.data.ratings.length === 0 ? (
        <p className="mt-2 text-slate-700">No reported ratings.</p>
      ) : null}
      <ul className="mt-3 space-y-3">
        {reported.data?.ratings.map((item) => (
          <li key={item.rating.id} className="rounded border border-slate-200 p-3">
            <p className="text-sm text-slate-800">
              {item.rating.rater.username ?? 'A deleted account'} rated{' '}
              {item.ratedUser.username ?? 'a deleted account'} about “{item.listingName}” ·{' '}
              {item.reports} {item.reports === 1 ? 'report' : 'reports'}
              {item.reasons.length > 0 ? `: ${item.reasons.join('; ')}` : ''}
            </p>
            <RatingView rating={item.rating} />
            <div className="mt-2 flex flex-wrap gap-2">
              <Button
                variant="danger"
                disabled={moderate.isPending}
                onClick={() => moderate.mutate({ id: item.rating.id, action: 'remove' })}
              >
                Remove rating
              </Button>
              <Button
                variant="secondary"
                disabled={moderate.isPending}
                onClick={() => moderate.mutate({ id: item.rating.id, action: 'dismiss' })}
              >
                Dismiss reports
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <RequestError error={moderate.error} />
    </section>
  );
}
