import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { useCreateListing } from './api/create-listing';
import { ListingForm } from './listing-form';
import { ListingFormLayout } from './listing-form-layout';
import { NEW_LISTING_VALUES } from './listing-form-values';

export default function CreateListingPage() {
  const navigate = useNavigate();
  const create = useCreateListing();

  return (
    <ListingFormLayout title="Create a Listing">
      <ListingForm
        mode="create"
        defaultValues={NEW_LISTING_VALUES}
        isSubmitting={create.isPending}
        submitError={create.error}
        onSubmit={(input) =>
          create.mutate(input, { onSuccess: (listing) => navigate(paths.listing(listing._id)) })
        }
      />
    </ListingFormLayout>
  );
}
