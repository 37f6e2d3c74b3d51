import { HOME_RECENT_COUNT } from '@campus-books/common/constants';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import {
  FIRST_SCREEN_CARDS,
  ListingCard,
  ListingGridSkeleton,
  PHONE_CARD_SIZES,
} from '../../components/listing-card';
import { useRecentListings } from './api/get-recent-listings';

const GRID = 'grid grid-cols-2 gap-4 md:grid-cols-4';
/** A cover's width in this grid: four columns from md, in a page at most 1152 px wide. */
const COVER_SIZES = `(min-width: 1152px) 268px, (min-width: 768px) calc(25vw - 20px), ${PHONE_CARD_SIZES}`;

/**
 * The newest books for sale. While they load, placeholders hold their place (so the section below
 * does not move); the section disappears when there are none or they could not be loaded.
 */
export function RecentAdditions() {
  const { data: listings, isPending } = useRecentListings();
  if (!isPending && (!listings || listings.length === 0)) return null;
  return (
    <section aria-labelledby="recent-additions" className="mt-12">
      <div className="mb-4 flex items-baseline justify-between gap-4">
        <h2 id="recent-additions" className="text-2xl font-bold text-slate-900">
          Recent Additions
        </h2>
        <Link to={`${paths.search}?type=sale`} className="link text-sm">
          Show more books
        </Link>
      </div>
      {listings ? (
        <ul className={GRID}>
          {listings.map((listing, i) => (
            <li key={listing._id} className="flex">
              <ListingCard
                listing={listing}
                sizes={COVER_SIZES}
                isFirstScreen={i < FIRST_SCREEN_CARDS}
              />
            </li>
          ))}
        </ul>
      ) : (
        <ListingGridSkeleton count={HOME_RECENT_COUNT} className={GRID} />
      )}
    </section>
  );
}
