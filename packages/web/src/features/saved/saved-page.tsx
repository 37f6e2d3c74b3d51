import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { paths } from '../../config/paths';
import { ListingCard, PHONE_CARD_SIZES } from '../../components/listing-card';
import {
  useSavedListingMails,
  useSavedListings,
  useSetSavedListingMails,
} from '../../api/saved-api';
import { CheckboxField } from '../../components/ui/form-field';
import { RequestError } from '../../components/ui/request-error';

/** The setting the saved-listing mails' unsubscribe link turns off; here it comes back on. */
function SavedListingMails() {
  const mails = useSavedListingMails();
  const set = useSetSavedListingMails();
  if (!mails.data) return <RequestError error={mails.error} className="mb-4" />;
  return (
    <div className="mb-4">
      <CheckboxField
        label="Mail me when a saved listing gets cheaper or sells"
        checked={mails.data.savedListingMails}
        disabled={set.isPending}
        onChange={(event) => set.mutate(event.currentTarget.checked)}
      />
      <RequestError error={set.error} className="mt-2" />
    </div>
  );
}

/** /saved: the listings the student saved; sold ones stay, marked sold. */
export default function SavedPage() {
  const { data, error, isPending } = useSavedListings();
  return (
    <section className="mx-auto w-full max-w-5xl py-2">
      <PageTitle title="Saved listings" />
      <h1 className="mb-4 text-2xl font-bold text-slate-900">Saved listings</h1>
      <SavedListingMails />
      {isPending ? (
        <p>Loading...</p>
      ) : error ? (
        <RequestError error={error} />
      ) : data.length === 0 ? (
        <p className="text-slate-800">
          Nothing saved yet: press the heart on a listing to keep it here.{' '}
          <Link to={paths.search} className="underline">
            Search listings
          </Link>
        </p>
      ) : (
        <>
          <h2 className="sr-only">Listings you saved</h2>
          <ul className="grid grid-cols-2 gap-4 lg:grid-cols-4">
            {data.map((listing) => (
              <li key={listing._id} className="flex">
                <ListingCard
                  listing={listing}
                  sizes={`(min-width: 1024px) 240px, ${PHONE_CARD_SIZES}`}
                />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
