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

/** A listing in a grid: cover, name, condition and course badges, price, and optional actions. */
export function ListingCard({ listing, actions }: { listing: Listing; actions?: ReactNode }) {
  const cover = listing.imageUrls[0];
  const href = paths.listing(listing._id);
  return (
    <article className="flex w-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md">
      <Link to={href} tabIndex={-1} aria-hidden="true" className="block bg-slate-100">
        {cover ? (
          <ListingImage
            url={cover}
            alt={listing.name}
            width={300}
            height={400}
            loading="lazy"
            decoding="async"
            sizes="(min-width: 1024px) 280px, (min-width: 768px) 30vw, 50vw"
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
