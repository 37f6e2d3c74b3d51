import { displayName } from '@campus-books/common/display';
import type { Listing } from '@campus-books/common/listing.schemas';
import type { ReactNode } from 'react';
import { ListingCard, PHONE_CARD_SIZES } from '../../components/listing-card';

/** A cover's width in these grids: three columns from md, four from lg (page at most 1152 px). */
const COVER_SIZES = `(min-width: 1152px) 268px, (min-width: 1024px) calc(25vw - 20px), (min-width: 768px) calc(33vw - 21px), ${PHONE_CARD_SIZES}`;

/** The owner's cards in a grid of two, three or four columns, each with its own actions. */
export function ListingGrid({
  listings,
  actionsOf,
  className = '',
}: {
  listings: Listing[];
  actionsOf(listing: Listing): ReactNode;
  className?: string;
}) {
  return (
    <ul className={`grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4 ${className}`.trim()}>
      {listings.map((listing) => (
        <li key={listing._id}>
          <ListingCard listing={listing} sizes={COVER_SIZES} actions={actionsOf(listing)} />
        </li>
      ))}
    </ul>
  );
}

/** The visible verb plus the book's name for screen readers, so each card's actions differ. */
export function ActionLabel({ verb, listing }: { verb: string; listing: Listing }) {
  return (
    <>
      {verb}
      <span className="sr-only"> {displayName(listing.name)}</span>
    </>
  );
}
