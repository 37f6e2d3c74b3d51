import type { Listing } from '@campus-books/common/listing.schemas';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { ButtonLink } from '../../components/ui/button-link';
import { ConfirmModal } from '../../components/ui/modal';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDeleteListing } from '../listings/api/delete-listing';
import { useUserListings } from '../listings/api/get-user-listings';
import { useMarkListingSold } from '../listings/api/mark-listing-sold';
import { useRelistListing } from '../listings/api/relist-listing';
import { ListingCard, PHONE_CARD_SIZES } from '../listings/listing-card';
import type { BannerTone } from '../../components/ui/banner';

/** A cover's width in these grids: three columns from md, four from lg (page at most 1152 px). */
const COVER_SIZES = `(min-width: 1152px) 268px, (min-width: 1024px) calc(25vw - 20px), (min-width: 768px) calc(33vw - 21px), ${PHONE_CARD_SIZES}`;

/** The visible verb plus the book's name for screen readers, so each card's buttons differ. */
function ActionLabel({ verb, listing }: { verb: string; listing: Listing }) {
  return (
    <>
      {verb}
      <span className="sr-only"> {listing.name}</span>
    </>
  );
}

/** The owner's listings: active ones with Edit / Mark as sold / Delete, and a Sold list with Relist. */
export function MyListings({
  userId,
  onFeedback,
}: {
  userId: string;
  onFeedback(tone: BannerTone, message: string): void;
}) {
  const listings = useUserListings(userId);
  const markSold = useMarkListingSold();
  const relist = useRelistListing();
  const remove = useDeleteListing();
  const [toDelete, setToDelete] = useState<Listing | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  if (listings.isPending) return <Loading />;
  if (listings.isError) {
    return <p className="font-medium text-red-700">Error showing listings</p>;
  }

  const active = listings.data.filter((listing) => listing.status !== 'sold');
  const sold = listings.data.filter((listing) => listing.status === 'sold');
  const onError = (error: Error) => setActionError(error.message);

  const confirmDelete = () => {
    if (!toDelete) return;
    setActionError(null);
    remove.mutate(toDelete._id, {
      onSuccess: () => {
        setToDelete(null);
        onFeedback('amber', 'Listing deleted');
      },
      onError,
    });
  };

  return (
    <div className="space-y-8">
      {actionError ? (
        <p role="alert" className="font-medium text-red-700">
          {actionError}
        </p>
      ) : null}
      {active.length === 0 ? (
        <div className="space-y-2 text-slate-700">
          <p>You have no books for sale right now.</p>
          <p className="text-sm">
            If My Listings does not show a listing you created, sign out and sign in again.
          </p>
        </div>
      ) : (
        <ul className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4">
          {active.map((listing) => (
            <li key={listing._id}>
              <ListingCard
                listing={listing}
                sizes={COVER_SIZES}
                actions={
                  <div className="flex w-full flex-col gap-2">
                    <ButtonLink variant="secondary" to={paths.updateListing(listing._id)}>
                      <ActionLabel verb="Edit" listing={listing} />
                    </ButtonLink>
                    <Button
                      variant="secondary"
                      isLoading={markSold.isPending && markSold.variables === listing._id}
                      loadingText="Saving..."
                      onClick={() => {
                        setActionError(null);
                        markSold.mutate(listing._id, {
                          onSuccess: () => onFeedback('green', 'Listing marked as sold'),
                          onError,
                        });
                      }}
                    >
                      <ActionLabel verb="Mark as sold" listing={listing} />
                    </Button>
                    <Button variant="danger" onClick={() => setToDelete(listing)}>
                      <ActionLabel verb="Delete" listing={listing} />
                    </Button>
                  </div>
                }
              />
            </li>
          ))}
        </ul>
      )}

      {sold.length > 0 ? (
        <section aria-labelledby="sold-listings-title">
          <h3 id="sold-listings-title" className="text-lg font-bold text-slate-900">
            Sold
          </h3>
          <ul className="mt-3 grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4">
            {sold.map((listing) => (
              <li key={listing._id}>
                <ListingCard
                  listing={listing}
                  sizes={COVER_SIZES}
                  actions={
                    <Button
                      variant="secondary"
                      className="w-full"
                      isLoading={relist.isPending && relist.variables === listing._id}
                      loadingText="Saving..."
                      onClick={() => {
                        setActionError(null);
                        relist.mutate(listing._id, {
                          onSuccess: () => onFeedback('blue', 'Listing is for sale again'),
                          onError,
                        });
                      }}
                    >
                      <ActionLabel verb="Relist" listing={listing} />
                    </Button>
                  }
                />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <ConfirmModal
        open={toDelete !== null}
        title="Delete this listing?"
        confirmLabel="Delete listing"
        isBusy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      >
        <p>{toDelete ? `“${toDelete.name}” and its photos are removed for good.` : null}</p>
      </ConfirmModal>
    </div>
  );
}
