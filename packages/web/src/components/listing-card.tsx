import {
  conditionColor,
  conditionLabel,
  displayName,
  editionLabel,
  formatPrice,
  isPending,
} from '@campus-books/common/display';
import type { SearchedListing } from '@campus-books/common/consortium-listing';
import type { ComponentProps, ReactNode } from 'react';
import { Link } from 'react-router';
import { CourseBadge } from './course-badge';
import { partnerHref } from './listing-card-links';
import { ListingImage } from './listing-image';
import { Badge } from './ui/badge';
import { paths } from '../config/paths';
import { SaveButton } from './save-button';
import { useNow } from '../lib/render-clock';
import { timeAgo } from '@campus-books/common/relative-time';

/** Every grid of cards has two columns on phones: half the width less the page padding and the gap. */
export const PHONE_CARD_SIZES = 'calc(50vw - 24px)';

const CARD =
  'flex w-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm';

/**
 * The price's font size: 1.125rem, or less when the text would not fit the card's width. A bold
 * digit or $ is at most ~0.7em wide, a comma or point ~0.4em; cqw is a hundredth of the card body.
 * Classes, not a style attribute: a server-rendered style attribute is refused by the page's CSP.
 */
const PRICE_SIZES: [maxEms: number, className: string][] = [
  [3, 'text-[length:min(1.125rem,33.3cqw)]'],
  [4, 'text-[length:min(1.125rem,25cqw)]'],
  [5, 'text-[length:min(1.125rem,20cqw)]'],
  [6, 'text-[length:min(1.125rem,16.6cqw)]'],
  [7, 'text-[length:min(1.125rem,14.2cqw)]'],
  [8, 'text-[length:min(1.125rem,12.5cqw)]'],
];

function priceSizeClass(price: string): string {
  const ems = [...price].reduce((sum, c) => sum + (/[0-9$]/.test(c) ? 0.7 : 0.4), 0);
  return PRICE_SIZES.find(([maxEms]) => ems <= maxEms)?.[1] ?? 'text-[length:min(1.125rem,10cqw)]';
}

/** How many cards of a page's first grid are in a phone's first screen (its first row). */
export const FIRST_SCREEN_CARDS = 2;

/**
 * A link to the listing's page: on this site, or, for a partner campus's listing (consortium
 * sharing), on that campus's own site, where its students view it, write to the seller and offer;
 * without a usable address of that site, the same content without a link.
 */
function ListingLink({
  listing,
  ...rest
}: { listing: SearchedListing } & Omit<ComponentProps<'a'>, 'href'>) {
  const path = paths.listing(listing._id);
  if (!listing.campus) return <Link to={path} {...rest} />;
  const href = partnerHref(listing.campus, path);
  if (href) return <a href={href} {...rest} />;
  const { className, title, children } = rest;
  return (
    <span className={className} title={title} aria-hidden={rest['aria-hidden']}>
      {children}
    </span>
  );
}

/**
 * A listing in a grid: cover, name, condition and course badges, price, and optional actions.
 * `sizes` is the cover's rendered width in that grid, so a phone downloads a small variant.
 * `isFirstScreen` marks a card a phone shows without scrolling: its cover is fetched at once and
 * first (the page's largest image), not lazily once laid out. A partner campus's listing (a
 * search's answer marks it with its `campus`) shows that campus's name and links to its own site.
 */
export function ListingCard({
  listing,
  sizes,
  actions,
  isFirstScreen = false,
}: {
  listing: SearchedListing;
  sizes: string;
  actions?: ReactNode;
  isFirstScreen?: boolean;
}) {
  const cover = listing.imageUrls[0];
  const name = displayName(listing.name);
  const price = formatPrice(listing.regularPrice);
  const now = useNow();
  return (
    <article className={`${CARD} relative transition-shadow hover:shadow-md`}>
      {/* A partner's listing is saved on its own site, by its campus's accounts. */}
      {listing.campus ? null : (
        <SaveButton
          listingId={listing._id}
          listingName={name}
          className="absolute top-2 right-2 z-10"
        />
      )}
      <ListingLink
        listing={listing}
        tabIndex={-1}
        aria-hidden="true"
        className="block bg-slate-100"
      >
        {cover ? (
          <ListingImage
            url={cover}
            alt={name}
            width={300}
            height={400}
            loading={isFirstScreen ? 'eager' : 'lazy'}
            fetchPriority={isFirstScreen ? 'high' : undefined}
            decoding="async"
            sizes={sizes}
            className="aspect-[3/4] w-full object-cover"
          />
        ) : (
          <div className="flex aspect-[3/4] w-full items-center justify-center text-sm text-slate-600">
            No image
          </div>
        )}
      </ListingLink>
      <div className="@container flex flex-1 flex-col gap-2 p-3">
        {/* Two lines of title at most, then an ellipsis; the full title is the link's tooltip. */}
        <h3 className="text-base leading-snug font-semibold wrap-anywhere">
          <ListingLink
            listing={listing}
            className="line-clamp-2 min-h-11 text-slate-900 no-underline hover:underline"
            title={name}
          >
            {name}
          </ListingLink>
        </h3>
        {listing.edition ? (
          <p className="-mt-1 truncate text-sm text-slate-600">{editionLabel(listing.edition)}</p>
        ) : null}
        {listing.campus ? (
          // A line of its own, not a pill: a university's full name may take several lines.
          <p className="w-fit rounded-md bg-blue-100 px-2 py-0.5 text-xs font-semibold text-blue-900">
            <span className="sr-only">At </span>
            {listing.campus.name}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-1.5">
          <Badge color={conditionColor(listing.condition)}>
            {conditionLabel(listing.condition)}
          </Badge>
          <CourseBadge
            subject={listing.subject}
            courseNumber={listing.courseNumber}
            campus={listing.campus}
          />
          {listing.status === 'sold' ? <Badge color="grey">Sold</Badge> : null}
          {isPending(listing) ? <Badge color="yellow">Pending</Badge> : null}
        </div>
        {/* Never wider than the card: a long price (up to $10,000,000.00) is set smaller. */}
        <p className={`font-bold whitespace-nowrap text-brand-900 ${priceSizeClass(price)}`}>
          {price}
        </p>
        <p className="-mt-1 text-xs text-slate-600">
          <time dateTime={listing.createdAt}>{timeAgo(listing.createdAt, now)}</time>
        </p>
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

/**
 * `count` card skeletons in a grid, announced once as loading. `showLabel` also shows the spec's
 * 'Loading...' over the placeholders (not above them, so nothing moves when the cards arrive).
 */
export function ListingGridSkeleton({
  count,
  className,
  showLabel = false,
}: {
  count: number;
  className: string;
  showLabel?: boolean;
}) {
  return (
    <div className="relative">
      <p
        role="status"
        className={
          showLabel
            ? 'absolute inset-x-0 top-8 z-10 mx-auto w-fit rounded-full bg-white px-4 py-2 text-lg font-semibold text-slate-800 shadow'
            : 'sr-only'
        }
      >
        Loading...
      </p>
      <ul aria-hidden="true" className={className}>
        {Array.from({ length: count }, (_, i) => (
          <li key={i} className="flex">
            <ListingCardSkeleton />
          </li>
        ))}
      </ul>
    </div>
  );
}
