import { PAGE_SIZE } from '@campus-books/common/constants';
import { Button } from '../../components/ui/button';
import { ListingCard, ListingGridSkeleton, PHONE_CARD_SIZES } from '../listings/listing-card';
import { useSearchListings } from './api/search-listings';

const GRID = 'grid grid-cols-2 gap-4 lg:grid-cols-3';
/** A cover's width in this grid: beside the 256 px filter column from md, three columns from lg. */
const COVER_SIZES = `(min-width: 1024px) 270px, (min-width: 768px) calc(50vw - 164px), ${PHONE_CARD_SIZES}`;

/** The result grid for one API query, with 'Show more' paging. */
export function SearchResults({ query }: { query: Record<string, string> }) {
  const { data, error, isPending, fetchNextPage, hasNextPage, isFetchingNextPage } =
    useSearchListings(query, { enabled: true });

  // A page of placeholders, so the results (and what follows them) arrive without moving anything.
  if (isPending) return <ListingGridSkeleton count={PAGE_SIZE} className={GRID} />;
  if (error) {
    return (
      <p role="alert" className="py-8 text-lg font-semibold text-red-800">
        Something went wrong! <span className="font-normal">{error.message}</span>
      </p>
    );
  }

  const listings = data.pages.flat();
  if (listings.length === 0) {
    return <p className="py-8 text-lg font-semibold text-slate-800">No listing found!</p>;
  }

  return (
    <>
      <ul className={GRID}>
        {listings.map((listing) => (
          <li key={listing._id} className="flex">
            <ListingCard listing={listing} sizes={COVER_SIZES} />
          </li>
        ))}
      </ul>
      {hasNextPage ? (
        <div className="mt-6 flex justify-center">
          <Button
            variant="secondary"
            onClick={() => void fetchNextPage()}
            isLoading={isFetchingNextPage}
          >
            Show more
          </Button>
        </div>
      ) : null}
    </>
  );
}
