import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { ListingCard } from '../listings/listing-card';
import { useRecentListings } from './api/get-recent-listings';

/** The newest books for sale; the section only appears when there are some. */
export function RecentAdditions() {
  const { data: listings } = useRecentListings();
  if (!listings || listings.length === 0) return null;
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
      <ul className="grid grid-cols-2 gap-4 md:grid-cols-4">
        {listings.map((listing) => (
          <li key={listing._id} className="flex">
            <ListingCard listing={listing} />
          </li>
        ))}
      </ul>
    </section>
  );
}
