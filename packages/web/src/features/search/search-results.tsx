import { PAGE_SIZE } from '@campus-books/common/constants';
import { Button } from '../../components/ui/button';
import { ButtonLink } from '../../components/ui/button-link';
import { paths } from '../../config/paths';
import { activeFilterChips } from './active-filter-chips';
import { resultCountText, type SearchFilters } from './search-filters';
import {
  FIRST_SCREEN_CARDS,
  ListingCard,
  ListingGridSkeleton,
  PHONE_CARD_SIZES,
} from '../../components/listing-card';
import { useSearchListings } from './api/search-listings';
import { NotifyMeButton } from '../../components/notify-me-button';
import type { AlertBody } from '@campus-books/common/alert.schemas';

const GRID = 'grid grid-cols-2 gap-4 lg:grid-cols-3';
/** A cover's width in this grid: beside the 256 px filter column from md, three columns from lg. */
const COVER_SIZES = `(min-width: 1024px) 270px, (min-width: 768px) calc(50vw - 164px), ${PHONE_CARD_SIZES}`;

/**
 * Cards that would end a grid on a lone card while more results can be loaded: hidden until the
 * next page fills their row (two columns below lg, three from lg).
 */
export function trailingCardClass(index: number, count: number, hasMore: boolean): string {
  if (!hasMore) return '';
  const classes: string[] = [];
  if (count % 2 === 1 && index === count - 1) classes.push('max-lg:hidden');
  if (index >= count - (count % 3)) classes.push('lg:hidden');
  return classes.join(' ');
}

/** The result grid for one API query, with its count, 'Show more' paging, and what to do when empty. */
export function SearchResults({
  query,
  filters,
  onChange,
  alert,
}: {
  query: Record<string, string>;
  /** The filters as an alert, when they name something to watch ("Notify me"). */
  alert?: AlertBody | null;
  filters: SearchFilters;
  onChange(next: SearchFilters | null): void;
}) {
  const { data, error, isPending, fetchNextPage, hasNextPage, isFetchingNextPage } =
    useSearchListings(query, { enabled: true });

  // A page of placeholders, so the results (and what follows them) arrive without moving anything.
  if (isPending) return <ListingGridSkeleton count={PAGE_SIZE} className={GRID} showLabel />;
  if (error) {
    return (
      <div role="alert" className="py-8">
        <p className="text-lg font-semibold text-red-800">
          Something went wrong! <span className="font-normal">{error.message}</span>
        </p>
        <Button variant="secondary" className="mt-4" onClick={() => window.location.reload()}>
          Try again
        </Button>
      </div>
    );
  }

  const listings = data.pages.flatMap((page) => page.listings);
  // The latest page's total is the freshest count of the whole search.
  const lastPage = data.pages.at(-1);
  const total = lastPage?.total ?? null;
  const chips = activeFilterChips(filters);
  if (listings.length === 0) {
    return (
      <div className="py-8">
        <p className="text-lg font-semibold text-slate-800">No listing found!</p>
        <p className="mt-2 text-slate-700">
          {chips.length > 1
            ? 'Try removing a filter above, or search all books.'
            : 'Try another word, a course code such as ECON 101, or look through every book.'}{' '}
          Have this book? Sell it: the next student looking for it will find it.
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          {chips.length > 0 ? (
            <Button variant="secondary" onClick={() => onChange(null)}>
              Clear all filters
            </Button>
          ) : null}
          <ButtonLink to={paths.createListing}>Sell a book</ButtonLink>
          {alert ? <NotifyMeButton filters={alert} /> : null}
        </div>
      </div>
    );
  }

  return (
    <>
      <p
        role="status"
        className="mb-3 text-sm font-semibold text-slate-700"
        data-testid="result-count"
      >
        {resultCountText(
          total === null
            ? { shown: listings.length, hasMore: hasNextPage }
            : {
                total: Math.max(total, listings.length),
                isCapped: lastPage?.isTotalCapped === true,
              },
          filters.searchTerm,
        )}
      </p>
      <ul className={GRID}>
        {listings.map((listing, i) => (
          <li
            key={listing._id}
            className={`flex ${trailingCardClass(i, listings.length, hasNextPage)}`}
          >
            <ListingCard
              listing={listing}
              sizes={COVER_SIZES}
              isFirstScreen={i < FIRST_SCREEN_CARDS}
            />
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
      {alert ? (
        <div className="mt-8 border-t border-slate-200 pt-4">
          <NotifyMeButton filters={alert} label="Notify me of new matches" />
        </div>
      ) : null}
    </>
  );
}
