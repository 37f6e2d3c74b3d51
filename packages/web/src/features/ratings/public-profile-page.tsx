import { isPending as isOnHold } from '@campus-books/common/display';
import { RATING_SHARE_MIN_COUNT, RATING_TAG_LABELS } from '@campus-books/common/rating.schemas';
import type { Listing } from '@campus-books/common/listing.schemas';
import { useParams } from 'react-router';
import { usePublicProfile, useReportRating } from '../../api/ratings-api';
import { ListingCard, PHONE_CARD_SIZES } from '../../components/listing-card';
import { PageTitle } from '../../components/page-title';
import { RatingView } from '../../components/rating-view';
import { Button } from '../../components/ui/button';
import { RequestError } from '../../components/ui/request-error';
import { OfferForSeveral } from '../../components/offer-set/offer-for-several';
import type { OfferBook } from '../../components/offer-set/offer-set';
import { useSession } from '../../lib/session';

const month = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });

function ReportRating({ id }: { id: string }) {
  const report = useReportRating();
  if (report.isSuccess) return <p className="text-sm text-slate-800">Reported. Thank you.</p>;
  return (
    <>
      <Button
        variant="secondary"
        className="mt-1"
        isLoading={report.isPending}
        onClick={() => report.mutate(id)}
      >
        Report this rating
      </Button>
      <RequestError error={report.error} />
    </>
  );
}

/** /u/{id}: a student's public profile: exchanges, ratings, comments, listings on sale. */
export default function PublicProfilePage() {
  const { userId } = useParams();
  const { data, error, isPending } = usePublicProfile(userId);
  if (isPending) return <p>Loading...</p>;
  if (error) return <RequestError error={error} />;
  return (
    <section className="mx-auto w-full max-w-5xl py-2">
      <PageTitle title={data.username} />
      <h1 className="text-2xl font-bold text-slate-900">{data.username}</h1>
      <p className="text-slate-800">Member since {month.format(new Date(data.memberSince))}</p>
      <dl className="my-4 grid grid-cols-2 gap-3 sm:max-w-md">
        <div className="rounded border border-slate-200 p-3">
          <dt className="text-sm text-slate-800">Completed exchanges</dt>
          <dd className="text-2xl font-bold text-slate-900">{data.completedExchanges}</dd>
        </div>
        <div className="rounded border border-slate-200 p-3">
          <dt className="text-sm text-slate-800">Positive ratings</dt>
          <dd className="text-2xl font-bold text-slate-900" data-testid="positive-share">
            {data.positivePercent === null ? '—' : `${data.positivePercent}%`}
          </dd>
          {data.positivePercent === null ? (
            <dd className="text-xs text-slate-800">
              Shown from {RATING_SHARE_MIN_COUNT} ratings ({data.ratingCount} so far)
            </dd>
          ) : (
            <dd className="text-xs text-slate-800">of {data.ratingCount} ratings</dd>
          )}
        </div>
      </dl>
      {data.topTags.length > 0 ? (
        <>
          <h2 className="mb-2 text-lg font-semibold text-slate-900">Most said</h2>
          <ul className="mb-4 flex flex-wrap gap-2">
            {data.topTags.map(({ tag, count }) => (
              <li key={tag} className="rounded-full bg-slate-100 px-3 py-1 text-slate-900">
                {RATING_TAG_LABELS[tag]} × {count}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h2 className="mb-2 text-lg font-semibold text-slate-900">Comments</h2>
      {data.comments.length === 0 ? (
        <p className="mb-4 text-slate-800">No comments yet.</p>
      ) : (
        <ul className="mb-4 space-y-3">
          {data.comments.map((rating) => (
            <li key={rating.id}>
              <RatingView
                rating={rating}
                heading={`${rating.rater.username ?? 'A deleted account'}, as ${rating.raterRole}`}
              />
              <ReportRating id={rating.id} />
            </li>
          ))}
        </ul>
      )}
      <h2 className="mb-2 text-lg font-semibold text-slate-900">On sale now</h2>
      <OfferForSeveralBooks sellerId={data.id} listings={data.listings} />
      {data.listings.length === 0 ? (
        <p className="text-slate-800">Nothing on sale right now.</p>
      ) : (
        <ul className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          {data.listings.map((listing) => (
            <li key={listing._id} className="flex">
              <ListingCard
                listing={listing}
                sizes={`(min-width: 1024px) 240px, ${PHONE_CARD_SIZES}`}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * A signed-in buyer's one offer for several of the seller's books (issue 44): the books not on
 * hold, the first of them preselected as the one the offer starts with.
 */
function OfferForSeveralBooks({
  sellerId,
  listings,
}: {
  sellerId: string;
  listings: readonly Listing[];
}) {
  const { user } = useSession();
  if (!user?.emailVerified || user._id === sellerId) return null;
  const choices: OfferBook[] = listings
    .filter((listing) => listing.status === 'active' && !isOnHold(listing))
    .map((listing) => ({ id: listing._id, title: listing.name, price: listing.regularPrice }));
  if (choices.length < 2) return null;
  return (
    <div className="mb-3">
      <OfferForSeveral book={choices[0]!} choices={choices} />
    </div>
  );
}
