import { useRequestListingReview } from '../api/listings/request-review';
import { Button } from './ui/button';
import { RequestError } from './ui/request-error';

/**
 * On the seller's own hidden listing: why only they see it, and "Request review", which puts it
 * first in the moderators' queue; the server's answer is shown (and announced) beside it.
 */
export function RequestReview({
  listingId,
  listingName,
  explain = true,
}: {
  listingId: string;
  listingName: string;
  /** The sentence saying why only the seller sees it (a card in My listings leaves it out). */
  explain?: boolean;
}) {
  const review = useRequestListingReview();
  return (
    <div
      className={`w-full space-y-2 text-sm ${explain ? 'rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950' : 'text-slate-900'}`}
    >
      {explain ? (
        <p>Hidden after reports: only you and the moderators see it until they look at it.</p>
      ) : null}
      {/* It stays after the answer (asking again is harmless), so focus is never lost. */}
      <Button
        variant="secondary"
        className="w-full sm:w-auto"
        isLoading={review.isPending}
        loadingText="Asking..."
        onClick={() => review.mutate(listingId)}
      >
        Request review<span className="sr-only"> of {listingName}</span>
      </Button>
      <p role="status" className="font-semibold empty:hidden">
        {review.data?.message}
      </p>
      <RequestError error={review.error} />
    </div>
  );
}
