import { Button } from '../../components/ui/button';
import { Loading } from '../../components/ui/spinner';
import { ListingCard } from '../listings/listing-card';
import { useSearchListings } from './api/search-listings';

/** The result grid for one API query, with 'Show more' paging. */
export function SearchResults({ query }: { query: Record<string, string> }) {
  const { data, error, isPending, fetchNextPage, hasNextPage, isFetchingNextPage } =
    useSearchListings(query, { enabled: true });

  if (isPending) return <Loading />;
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
      <ul className="grid grid-cols-2 gap-4 lg:grid-cols-3">
        {listings.map((listing) => (
          <li key={listing._id} className="flex">
            <ListingCard listing={listing} />
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
