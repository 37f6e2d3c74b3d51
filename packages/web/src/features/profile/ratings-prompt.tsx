import { Link } from 'react-router';
import { useExchanges } from '../../api/ratings-api';
import { paths } from '../../config/paths';

/** The profile's way to the student's exchanges: a prompt while some await their rating. */
export function RatingsPrompt({ userId }: { userId: string }) {
  const exchanges = useExchanges();
  const toRate = exchanges.data?.toRate ?? 0;
  return (
    <div
      className={`rounded border p-3 ${toRate > 0 ? 'border-brand-700 bg-brand-50' : 'border-slate-200'}`}
    >
      {toRate > 0 ? (
        <p className="font-semibold text-slate-900">
          {toRate === 1 ? 'You have an exchange to rate.' : `You have ${toRate} exchanges to rate.`}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-x-4">
        <Link to={paths.ratings} className="link inline-flex min-h-11 items-center">
          {toRate > 0 ? 'Rate your exchanges' : 'Your exchanges and ratings'}
        </Link>
        <Link to={paths.publicProfile(userId)} className="link inline-flex min-h-11 items-center">
          Your public profile
        </Link>
      </div>
    </div>
  );
}
