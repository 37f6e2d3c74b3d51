import { displayName } from '@campus-books/common/display';
import type { Listing } from '@campus-books/common/listing.schemas';
import { useUserListings } from '../../api/listings/get-user-listings';
import { useMarkListingSoldTo } from '../../api/listings/mark-listing-sold';
import { MarkSoldDialog } from '../../components/mark-sold';
import { RequestReview } from '../../components/request-review';
import type { BannerTone } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { ConfirmModal } from '../../components/ui/modal';
import { Loading } from '../../components/ui/spinner';
import { ActionLabel, ListingGrid } from './listing-grid';
import { ListingStatusTabs } from './listing-status-tabs';
import { useListingActions } from './use-listing-actions';

/**
 * The owner's listings: Active and Sold tabs whose cards have a Manage menu (Edit, Mark as sold or
 * Relist, Messages, Delete), then the expired ones with Relist and those with the moderators.
 */
export function MyListings({
  userId,
  onFeedback,
}: {
  userId: string;
  onFeedback(tone: BannerTone, message: string): void;
}) {
  const listings = useUserListings(userId);
  const actions = useListingActions(onFeedback);

  if (listings.isPending) return <Loading />;
  if (listings.isError) {
    return (
      <div role="alert" className="space-y-3">
        <p className="font-medium text-red-700">Error showing listings</p>
        <Button variant="secondary" onClick={() => void listings.refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  const withStatus = (...statuses: Listing['status'][]) =>
    listings.data.filter((listing) => statuses.includes(listing.status));
  // Expired: not confirmed in time (issue 16); hidden or removed: reported, or by a moderator.
  const expired = withStatus('expired');
  const withModerators = withStatus('hidden', 'removed');
  const { toSell, toDelete } = actions;

  return (
    <div className="space-y-4">
      {actions.error ? (
        <p role="alert" className="font-medium text-red-700">
          {actions.error}
        </p>
      ) : null}
      <ListingStatusTabs
        active={withStatus('active')}
        sold={withStatus('sold')}
        actions={actions}
      />
      {expired.length > 0 ? (
        <section aria-labelledby="expired-listings-title">
          <h3 id="expired-listings-title" className="text-lg font-bold text-slate-900">
            Expired
          </h3>
          <ListingGrid
            className="mt-3"
            listings={expired}
            actionsOf={(listing) => (
              <Button
                variant="secondary"
                className="w-full"
                isLoading={actions.isRelisting(listing)}
                loadingText="Saving..."
                onClick={() => actions.relist(listing)}
              >
                <ActionLabel verb="Relist" listing={listing} />
              </Button>
            )}
          />
        </section>
      ) : null}
      {withModerators.length > 0 ? (
        <section aria-labelledby="moderated-listings-title">
          <h3 id="moderated-listings-title" className="text-lg font-bold text-slate-900">
            With the moderators
          </h3>
          <p className="mt-1 text-sm text-slate-700">
            Hidden after reports or removed by the moderators: only you see them. Ask for a review
            of a hidden one and the moderators look at it first.
          </p>
          <ListingGrid
            className="mt-3"
            listings={withModerators}
            actionsOf={(listing) =>
              listing.status === 'hidden' ? (
                <RequestReview
                  listingId={listing._id}
                  listingName={displayName(listing.name)}
                  explain={false}
                />
              ) : undefined
            }
          />
        </section>
      ) : null}

      {toSell ? (
        <MarkSoldOf
          key={toSell._id}
          listing={toSell}
          onClose={actions.closeWhoBought}
          onSold={() => onFeedback('green', 'Listing marked as sold')}
        />
      ) : null}
      <ConfirmModal
        open={toDelete !== null}
        title="Delete this listing?"
        confirmLabel="Delete listing"
        isBusy={actions.isDeleting}
        onConfirm={actions.confirmDelete}
        onCancel={actions.cancelDelete}
      >
        <p>
          {toDelete ? `“${displayName(toDelete.name)}” and its photos are removed for good.` : null}
        </p>
      </ConfirmModal>
    </div>
  );
}

/** "Sold to whom?" for one listing, asked from its card's menu (the thread asks the same). */
function MarkSoldOf({
  listing,
  onClose,
  onSold,
}: {
  listing: Listing;
  onClose(): void;
  onSold(): void;
}) {
  const sold = useMarkListingSoldTo(listing._id);
  return (
    <MarkSoldDialog
      open
      listingId={listing._id}
      defaultBuyerId={null}
      mutation={sold}
      onClose={onClose}
      onSold={onSold}
    />
  );
}
