import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { useListing } from './api/get-listing';
import { useRelistListing } from '../../api/listings/relist-listing';
import { useUpdateListing } from './api/update-listing';
import { ListingForm } from './listing-form';
import { ListingFormLayout } from './listing-form-layout';
import { listingFormValues } from './listing-form-values';
import { RequestError } from '../../components/ui/request-error';

function loadErrorMessage(error: Error): string {
  return error instanceof ApiError && error.status !== 0
    ? error.message
    : 'Failed to fetch listing';
}

export default function UpdateListingPage() {
  const { listingId } = useParams();
  const navigate = useNavigate();
  const listing = useListing(listingId);
  const update = useUpdateListing();
  const relist = useRelistListing();
  const user = useSession().user;

  let content;
  if (!listingId) {
    content = <p className="font-medium text-red-700">No listing ID provided</p>;
  } else if (listing.isPending) {
    content = <Loading />;
  } else if (listing.isError) {
    content = (
      <div role="alert" className="space-y-3">
        <p className="font-medium text-red-700">{loadErrorMessage(listing.error)}</p>
        <Link className="link font-semibold" to={paths.profile}>
          Back to your listings
        </Link>
      </div>
    );
  } else if (listing.data.userRef !== user?._id) {
    // Said up front: someone else's listing never shows as a form that fails only on submit.
    content = (
      <div role="alert" className="space-y-3">
        <p className="text-lg font-semibold text-slate-900">This isn&apos;t your listing</p>
        <p className="text-slate-700">Only its seller can change it.</p>
        <Link className="link font-semibold" to={paths.listing(listing.data._id)}>
          Back to the listing
        </Link>
      </div>
    );
  } else if (listing.data.status === 'sold') {
    // The server refuses to edit a sold listing (409): relisting it comes first.
    content = (
      <div className="space-y-4">
        <p role="status" className="font-medium text-slate-900">
          This listing is marked as sold. Relist it first to edit.
        </p>
        <RequestError error={relist.error} />
        <Button
          isLoading={relist.isPending}
          loadingText="Saving..."
          onClick={() => relist.mutate(listingId)}
        >
          Relist
        </Button>
      </div>
    );
  } else {
    content = (
      <ListingForm
        key={listing.data._id}
        mode="update"
        defaultValues={listingFormValues(listing.data)}
        isSubmitting={update.isPending}
        submitError={update.error}
        onSubmit={(input) =>
          update.mutate(
            { listingId, input },
            { onSuccess: (saved) => navigate(paths.listing(saved._id)) },
          )
        }
      />
    );
  }

  return <ListingFormLayout title="Update a Listing">{content}</ListingFormLayout>;
}
