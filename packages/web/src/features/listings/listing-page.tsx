import { StudentSummary } from '../../components/student-summary';
import {
  conditionColor,
  conditionLabel,
  displayName,
  editionLabel,
  formatPrice,
  isPending as isOnHold,
  majorText,
  schoolText,
} from '@campus-books/common/display';
import type { Listing } from '@campus-books/common/listing.schemas';
import { useDeferredValue, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { CourseBadge } from '../../components/course-badge';
import { PageTitle } from '../../components/page-title';
import { Badge } from '../../components/ui/badge';
import { ButtonLink } from '../../components/ui/button-link';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useCampus } from '../../lib/campus';
import { NotFound } from '../../components/not-found';
import { ApiError } from '../../lib/api-client';
import { useNow } from '../../lib/render-clock';
import { confirmedAgo, timeAgo } from '@campus-books/common/relative-time';
import { useSession } from '../../lib/session';
import { Avatar } from '../../components/avatar';
import { useSeller } from '../../api/get-seller';
import { useListing } from './api/get-listing';
import { ImageGallery } from './image-gallery';
import { ListingAction } from './listing-action';
import { PriceTable } from './price-table';
import { OtherCopies } from './other-copies';
import { ShareButton } from './share-button';
import { NotifyMeButton } from '../../components/notify-me-button';
import { SaveButton } from '../../components/save-button';
import { DemandLine } from '../../components/demand';
import { ReportListing } from '../../components/report-listing';
import { ListingConversations } from '../../components/listing-conversations';
import { RequestReview } from '../../components/request-review';
import { FirstMessages } from './first-messages';
import { OfferForSeveral } from '../../components/offer-set/offer-for-several';

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="py-2 sm:grid sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-semibold text-slate-700">{term}</dt>
      <dd className="text-slate-900 sm:col-span-2">{children}</dd>
    </div>
  );
}

export default function ListingPage() {
  const { listingId } = useParams();
  const { user } = useSession();
  const { data, isPending, error } = useListing(listingId);
  // The answer arrives outside any transition, and the page's first render with it is the heavy
  // one: deferring it lets React render it in slices instead of one long task on a phone. (The
  // layout remounts this page for every path, so no other listing's value is ever shown here.)
  const listing = useDeferredValue(data);
  const now = useNow();
  const { majorLabel } = useCampus();

  if (isPending || (data && !listing)) return <Loading />;
  // No such listing (or one hidden from this visitor): the not-found page, as the server answers 404.
  if (error instanceof ApiError && error.status === 404) return <NotFound />;
  if (error || !listing) {
    return (
      <div role="alert" className="py-12 text-center">
        <PageTitle title="Listing not available" />
        <h1 className="text-2xl font-bold text-slate-900">Something went wrong!</h1>
        {error ? <p className="mt-2 text-slate-700">{error.message}</p> : null}
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <ButtonLink to={paths.search}>Browse all books</ButtonLink>
          <ButtonLink to={paths.home} variant="secondary">
            Go home
          </ButtonLink>
        </div>
      </div>
    );
  }

  const isSold = listing.status === 'sold';
  const isExpired = listing.status === 'expired';
  const name = displayName(listing.name);
  return (
    // Phones: title, price, badges and the seller first, then the photos, the details, and the
    // contact bar stuck to the bottom of the screen. From md: photos left, everything else right.
    <article className="grid grid-cols-1 gap-x-8 gap-y-5 md:grid-cols-2 md:items-start">
      <PageTitle title={name} />
      <header className="md:col-start-2 md:row-start-1">
        <h1 className="text-2xl font-bold wrap-anywhere text-slate-900 sm:text-3xl">{name}</h1>
        <p className="mt-1 text-3xl font-bold text-brand-900" data-testid="listing-price">
          {formatPrice(listing.regularPrice)}
        </p>
        <div className="mt-2 flex flex-wrap gap-2">
          <Badge color={conditionColor(listing.condition)}>
            {conditionLabel(listing.condition)}
          </Badge>
          <CourseBadge
            subject={listing.subject}
            courseNumber={listing.courseNumber}
            prefix="Course"
          />
          {listing.edition ? <Badge color="grey">{editionLabel(listing.edition)}</Badge> : null}
          {isSold ? <Badge color="grey">Sold</Badge> : null}
          {isExpired ? <Badge color="grey">Expired</Badge> : null}
          {isOnHold(listing) ? <Badge color="yellow">Pending</Badge> : null}
        </div>
        <SellerLine listing={listing} />
        <SellerSummary listing={listing} />
      </header>
      <div className="min-w-0 md:col-start-1 md:row-span-3 md:row-start-1">
        <ImageGallery imageUrls={listing.imageUrls} name={name} />
      </div>
      <div className="flex flex-col gap-5 md:col-start-2 md:row-start-3">
        {isSold ? (
          <p className="rounded-lg border border-slate-300 bg-slate-100 p-3 font-semibold text-slate-800">
            Sold: this book is no longer available.{' '}
            <Link
              to={`${paths.search}?searchTerm=${encodeURIComponent(listing.name)}`}
              className="underline"
            >
              Find other copies
            </Link>
          </p>
        ) : null}
        {isExpired ? (
          <p className="rounded-lg border border-slate-300 bg-slate-100 p-3 font-semibold text-slate-800">
            No longer available: this listing expired.
          </p>
        ) : null}
        {listing.status === 'hidden' && user?._id === listing.userRef ? (
          <RequestReview listingId={listing._id} listingName={name} />
        ) : null}
        {listing.status === 'active' ? (
          <p className="text-sm text-slate-700">{confirmedAgo(listing.confirmedAt, now)}</p>
        ) : null}
        <dl className="divide-y divide-slate-200 border-y border-slate-200">
          {listing.isbn || listing.authors || listing.edition ? (
            <Detail term="Book">
              {[
                listing.authors,
                editionLabel(listing.edition),
                listing.isbn && `ISBN ${listing.isbn}`,
              ]
                .filter(Boolean)
                .join(' · ')}
              {listing.publisherCover ? (
                <span className="block text-sm text-slate-600">
                  One photo is the publisher&apos;s cover.
                </span>
              ) : null}
            </Detail>
          ) : null}
          <Detail term="Major">{majorLabel(listing.major) ?? majorText(listing.major)}</Detail>
          <Detail term="School">{schoolText(listing.school)}</Detail>
          <Detail term="Pickup Location">
            {listing.pickupLocation || listing.address || 'Not Specified'}
          </Detail>
          <Detail term="Description">
            <span className="whitespace-pre-line">{listing.description || 'No description'}</span>
          </Detail>
        </dl>
        <PriceTable price={listing.regularPrice} />
        <DemandLine
          isbn={listing.isbn}
          subject={listing.subject}
          courseNumber={listing.courseNumber}
        />
        <div className="flex flex-wrap items-center gap-3">
          <SaveButton listingId={listing._id} listingName={name} />
          <ShareButton />
        </div>
        {listing.isbn ? (
          <NotifyMeButton
            filters={{ isbn: listing.isbn }}
            label="Notify me of other copies of this book"
          />
        ) : null}
        {user?.emailVerified && user._id === listing.userRef ? (
          <ListingConversations listingId={listing._id} />
        ) : null}
        {user?.emailVerified && user._id !== listing.userRef && listing.status === 'active' ? (
          <FirstMessages listing={listing} />
        ) : null}
        {user?.emailVerified &&
        user._id !== listing.userRef &&
        listing.status === 'active' &&
        !isOnHold(listing) ? (
          <div>
            <OfferForSeveral
              book={{ id: listing._id, title: listing.name, price: listing.regularPrice }}
            />
          </div>
        ) : null}
        {user && user._id !== listing.userRef && listing.status === 'active' ? (
          <ReportListing listingId={listing._id} />
        ) : null}
        {listing.isbn ? <OtherCopies isbn13={listing.isbn} listingId={listing._id} /> : null}
      </div>
      {/*
        On phones the action stays in reach: a bar stuck to the bottom of the screen. A long price
        with large text (a phone at 200 %) puts the action on a line of its own.
      */}
      <div
        data-testid="contact-bar"
        className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-[0_-2px_8px_rgba(0,0,0,0.06)] backdrop-blur md:static md:col-start-2 md:row-start-2 md:mx-0 md:border-0 md:bg-transparent md:p-0 md:shadow-none md:backdrop-blur-none"
      >
        <p className="shrink-0 text-lg font-bold text-brand-900 md:hidden" aria-hidden="true">
          {formatPrice(listing.regularPrice)}
        </p>
        <div className="min-w-0 flex-[1_1_12rem]">
          <ListingAction listing={listing} />
        </div>
      </div>
    </article>
  );
}

/** Who sells it (signed-in students see the name) and how long ago it was listed. */
function SellerLine({ listing }: { listing: Listing }) {
  const { user } = useSession();
  const mine = user?._id === listing.userRef;
  const seller = useSeller(listing.userRef, {
    enabled: Boolean(user?.emailVerified) && !mine,
  });
  const sellerName = mine ? 'You' : seller.data?.username;
  const now = useNow();
  return (
    <p className="mt-3 flex items-center gap-2 text-sm text-slate-700">
      <Avatar name={(mine ? user?.username : sellerName) ?? ''} size="sm" />
      <span>
        {sellerName ? (
          <span className="font-semibold text-slate-900">{sellerName}</span>
        ) : (
          'A student'
        )}
        {' · '}listed <time dateTime={listing.createdAt}>{timeAgo(listing.createdAt, now)}</time>
      </span>
    </p>
  );
}

/** Signed-in students see a line about the seller: exchanges, positive share, their profile. */
function SellerSummary({ listing }: { listing: Listing }) {
  const { user } = useSession();
  if (!user?.emailVerified || user._id === listing.userRef) return null;
  return <StudentSummary userId={listing.userRef} label="Seller" />;
}
