import { formatDays } from '@campus-books/common/durations';
import type { Exchange } from '@campus-books/common/rating.schemas';
import { Link } from 'react-router';
import { useExchanges } from '../../api/ratings-api';
import { PageTitle } from '../../components/page-title';
import { RatingView } from '../../components/rating-view';
import { RequestError } from '../../components/ui/request-error';
import { paths } from '../../config/paths';
import { RateExchangeForm } from './rate-exchange-form';

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

function ExchangeItem({ exchange }: { exchange: Exchange }) {
  const other = exchange.other.username ?? 'A deleted account';
  const titleId = `exchange-${exchange.id}`;
  return (
    <li className="rounded-lg border border-slate-200 bg-slate-50 p-4" aria-labelledby={titleId}>
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        {exchange.listing.id ? (
          <Link to={paths.listing(exchange.listing.id)} className="underline">
            {exchange.listing.name}
          </Link>
        ) : (
          exchange.listing.name
        )}
      </h2>
      <p className="text-sm text-slate-800">
        {exchange.role === 'seller' ? 'Sold to ' : 'Bought from '}
        {exchange.other.id ? (
          <Link
            to={paths.publicProfile(exchange.other.id)}
            className="inline-flex min-h-11 items-center underline"
          >
            {other}
          </Link>
        ) : (
          other
        )}{' '}
        on {day.format(new Date(exchange.soldAt))}
      </p>
      {exchange.canRate ? <RateExchangeForm exchange={exchange} /> : null}
      {exchange.mine ? <RatingView rating={exchange.mine} heading="Your rating" /> : null}
      <div className="mt-2" data-testid="their-rating">
        {exchange.theirs ? (
          <RatingView rating={exchange.theirs} heading={`${other}'s rating of you`} />
        ) : exchange.revealed ? (
          <p className="text-sm text-slate-800">{other} did not rate this exchange.</p>
        ) : (
          <p className="text-sm text-slate-800">
            {exchange.theyRated
              ? `${other} has rated. Both ratings show once you rate too, or on ${day.format(new Date(exchange.revealAt))}.`
              : `Both ratings show once both of you have rated, or on ${day.format(new Date(exchange.revealAt))}.`}
          </p>
        )}
      </div>
    </li>
  );
}

/** /ratings: the student's recorded exchanges, each rated once; ratings show when both rated. */
export default function RatingsPage() {
  const { data, error, isPending } = useExchanges();
  return (
    <section className="mx-auto w-full max-w-3xl py-2">
      <PageTitle title="Rate your exchanges" />
      <h1 className="mb-2 text-2xl font-bold text-slate-900">Rate your exchanges</h1>
      <p className="mb-4 text-slate-800">
        After a sale, buyer and seller rate each other once. Neither sees the other rating until
        both have rated{data ? `, or ${formatDays(data.revealDays)} have passed` : ''}.
      </p>
      {isPending ? (
        <p>Loading...</p>
      ) : error ? (
        <RequestError error={error} />
      ) : data.exchanges.length === 0 ? (
        <p className="text-slate-800">
          No exchanges yet: when a seller marks a listing sold to you (or you sell one), it shows
          here.
        </p>
      ) : (
        <ul className="space-y-4">
          {data.exchanges.map((exchange) => (
            <ExchangeItem key={exchange.id} exchange={exchange} />
          ))}
        </ul>
      )}
    </section>
  );
}
