import {
  conditionColor,
  conditionLabel,
  courseLevelColor,
  courseNumberBadge,
  formatPrice,
} from '@campus-books/common/display';
import type { Listing } from '@campus-books/common/listing.schemas';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ListingImage } from '../../components/listing-image';
import { Badge } from '../../components/ui/badge';
import { paths } from '../../config/paths';

/** Every grid of cards has two columns on phones: half the width less the page padding and the gap. */
export const PHONE_CARD_SIZES = 'calc(50vw - 24px)';

const CARD =
  'flex w-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm';

/**
 * A listing in a grid: cover, name, condition and course badges, price, and optional actions.
 * `sizes` is the cover's rendered width in that grid, so a phone downloads a small variant.
 */
export function ListingCard({
  listing,
  sizes,
  actions,
}: {
  listing: Listing;
  sizes: string;
  actions?: ReactNode;
}) {
  const cover = listing.imageUrls[0];
  const href = paths.listing(listing._id);
  return (
    <article className={`${CARD} transition-shadow hover:shadow-md`}>
      <Link to={href} tabIndex={-1} aria-hidden="true" className="block bg-slate-100">
        {cover ? (
          <ListingImage
            url={cover}
            alt={listing.name}
            width={300}
            height={400}
            loading="lazy"
            decoding="async"
            sizes={sizes}
            className="aspect-[3/4] w-full object-cover"
          />
        ) : (
          <div className="flex aspect-[3/4] w-full items-center justify-center text-sm text-slate-600">
            No image
          </div>
        )}
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-3">
        <h3 className="truncate text-base font-semibold capitalize">
          <Link
            to={href}
            className="text-slate-900 no-underline hover:underline"
            title={listing.name}
          >
            {listing.name}
          </Link>
        </h3>
        <div className="flex flex-wrap gap-1.5">
          <Badge color={conditionColor(listing.condition)}>
            {conditionLabel(listing.condition)}
          </Badge>
          <Badge color={courseLevelColor(listing.courseNumber)}>
            <span className="sr-only">Course </span>
            {courseNumberBadge(listing.courseNumber)}
          </Badge>
          {listing.status === 'sold' ? <Badge color="grey">Sold</Badge> : null}
        </div>
        <p className="text-lg font-bold text-brand-900">{formatPrice(listing.regularPrice)}</p>
        {actions ? <div className="mt-auto flex flex-wrap gap-2 pt-1">{actions}</div> : null}
      </div>
    </article>
  );
}

/** A card's place while listings load: the same size, so nothing below it moves when they arrive. */
function ListingCardSkeleton() {
  const bar = 'inline-block rounded bg-slate-200 align-middle';
  return (
    <div aria-hidden="true" className={CARD}>
      <div className="aspect-[3/4] w-full animate-pulse bg-slate-100" />
      <div className="flex flex-1 flex-col gap-2 p-3">
        <p className="text-base">
          <span className={`${bar} h-4 w-4/5`} />
        </p>
        <p className="flex gap-1.5 text-xs">
          <span className={`${bar} h-5 w-14 rounded-full`} />
          <span className={`${bar} h-5 w-9 rounded-full`} />
        </p>
        <p className="text-lg">
          <span className={`${bar} h-5 w-12`} />
        </p>
      </div>
    </div>
  );
}

/** `count` card skeletons in a grid, announced once as loading. */
export function ListingGridSkeleton({ count, className }: { count: number; className: string }) {
  return (
    <>
      <p role="status" className="sr-only">
        Loading...
      </p>
      <ul aria-hidden="true" className={className}>
        {Array.from({ length: count }, (_, i) => (
          <li key={i} className="flex">
            <ListingCardSkeleton />
          </li>
        ))}
      </ul>
    </>
  );
}
