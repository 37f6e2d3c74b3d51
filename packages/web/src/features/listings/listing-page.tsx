import { majorLabel } from '@campus-books/common/campus';
import {
  conditionColor,
  conditionLabel,
  courseLevelColor,
  courseNumberBadge,
  majorText,
  schoolText,
} from '@campus-books/common/display';
import { useDeferredValue, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Badge } from '../../components/ui/badge';
import { Loading } from '../../components/ui/spinner';
import { useListing } from './api/get-listing';
import { ImageGallery } from './image-gallery';
import { ListingAction } from './listing-action';
import { PriceTable } from './price-table';
import { ShareButton } from './share-button';

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
  const { data, isPending, error } = useListing(listingId);
  // The answer arrives outside any transition, and the page's first render with it is the heavy
  // one: deferring it lets React render it in slices instead of one long task on a phone. (The
  // layout remounts this page for every path, so no other listing's value is ever shown here.)
  const listing = useDeferredValue(data);

  if (isPending || (data && !listing)) return <Loading />;
  if (error || !listing) {
    return (
      <div role="alert" className="py-12 text-center">
        <PageTitle title="Listing not available" />
        <h1 className="text-2xl font-bold text-slate-900">Something went wrong!</h1>
        {error ? <p className="mt-2 text-slate-700">{error.message}</p> : null}
      </div>
    );
  }

  const isSold = listing.status === 'sold';
  return (
    <article className="grid gap-8 md:grid-cols-2">
      <PageTitle title={listing.name} />
      <ImageGallery imageUrls={listing.imageUrls} name={listing.name} />
      <div className="flex flex-col gap-5">
        <div>
          <h1 className="text-3xl font-bold break-words text-slate-900 capitalize">
            {listing.name}
          </h1>
          <div className="mt-3 flex flex-wrap gap-2">
            <Badge color={courseLevelColor(listing.courseNumber)}>
              Course {courseNumberBadge(listing.courseNumber)}
            </Badge>
            <Badge color={conditionColor(listing.condition)}>
              {conditionLabel(listing.condition)}
            </Badge>
            {isSold ? <Badge color="grey">Sold</Badge> : null}
          </div>
        </div>
        {isSold ? (
          <p className="rounded-lg border border-slate-300 bg-slate-100 p-3 font-semibold text-slate-800">
            Sold: this book is no longer available.
          </p>
        ) : null}
        <dl className="divide-y divide-slate-200 border-y border-slate-200">
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
        <ListingAction listing={listing} />
        <ShareButton />
      </div>
    </article>
  );
}
