import { useNavigate, useParams } from 'react-router';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { useListing } from './api/get-listing';
import { useUpdateListing } from './api/update-listing';
import { ListingForm } from './listing-form';
import { ListingFormLayout } from './listing-form-layout';
import { listingFormValues } from './listing-form-values';

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

  let content;
  if (!listingId) {
    content = <p className="font-medium text-red-700">No listing ID provided</p>;
  } else if (listing.isPending) {
    content = <Loading />;
  } else if (listing.isError) {
    content = (
      <p role="alert" className="font-medium text-red-700">
        {loadErrorMessage(listing.error)}
      </p>
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
