import { displayName } from '@campus-books/common/display';
import type { Listing } from '@campus-books/common/listing.schemas';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { ButtonLink } from '../../components/ui/button-link';
import { ConfirmModal } from '../../components/ui/modal';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDeleteListing } from '../../api/listings/delete-listing';
import { useUserListings } from '../../api/listings/get-user-listings';
import { useMarkListingSoldTo } from '../../api/listings/mark-listing-sold';
import { MarkSoldDialog } from '../../components/mark-sold';
import { useRelistListing } from '../../api/listings/relist-listing';
import { ListingCard, PHONE_CARD_SIZES } from '../../components/listing-card';
import type { BannerTone } from '../../components/ui/banner';
import { RequestReview } from '../../components/request-review';

/** A cover's width in these grids: three columns from md, four from lg (page at most 1152 px). */
const COVER_SIZES = `(min-width: 1152px) 268px, (min-width: 1024px) calc(25vw - 20px), (min-width: 768px) calc(33vw - 21px), ${PHONE_CARD_SIZES}`;

/** The visible verb plus the book's name for screen readers, so each card's buttons differ. */
function ActionLabel({ verb, listing }: { verb: string; listing: Listing }) {
  return (
    <>
      {verb}
      <span className="sr-only"> {displayName(listing.name)}</span>
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
  const relist = useRelistListing();
  const remove = useDeleteListing();
  const [toDelete, setToDelete] = useState<Listing | null>(null);
  const [toSell, setToSell] = useState<Listing | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [tab, setTab] = useState<'active' | 'sold'>('active');
  const [openMenu, setOpenMenu] = useState<string | null>(null);

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

  const active = listings.data.filter((listing) => listing.status === 'active');
  const sold = listings.data.filter((listing) => listing.status === 'sold');
  // Expired: not confirmed in time (issue 16); hidden or removed: reported, or by a moderator.
  const expired = listings.data.filter((listing) => listing.status === 'expired');
  const withModerators = listings.data.filter(
    (listing) => listing.status === 'hidden' || listing.status === 'removed',
  );
  const onError = (error: Error) => setActionError(error.message);

  const relistSection = (titleId: string, title: string, items: Listing[]) =>
    items.length > 0 ? (
      <section aria-labelledby={titleId}>
        <h3 id={titleId} className="text-lg font-bold text-slate-900">
          {title}
        </h3>
        <ul className="mt-3 grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4">
          {items.map((listing) => (
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
    ) : null;

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

  const shown = tab === 'active' ? active : sold;
  const tabs = [
    { id: 'active', label: `Active (${active.length})` },
    { id: 'sold', label: `Sold (${sold.length})` },
  ] as const;

  return (
    <div className="space-y-4">
      {actionError ? (
        <p role="alert" className="font-medium text-red-700">
          {actionError}
        </p>
      ) : null}
      <div
        role="tablist"
        aria-label="Your listings by status"
        className="flex gap-2 border-b border-slate-200"
      >
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`listings-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="listings-tabpanel"
            onClick={() => setTab(t.id)}
            className={`-mb-px min-h-11 border-b-2 px-4 text-sm font-semibold ${
              tab === t.id
                ? 'border-brand-700 text-brand-900'
                : 'border-transparent text-slate-700 hover:text-slate-900'
            }`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <section id="listings-tabpanel" role="tabpanel" aria-labelledby={`listings-tab-${tab}`}>
        {shown.length === 0 ? (
          <div className="space-y-3 py-4 text-slate-700">
            <p>
              {tab === 'active'
                ? 'You have no books for sale right now.'
                : 'Nothing sold yet: books you mark as sold show up here.'}
            </p>
            {tab === 'active' ? (
              <ButtonLink to={paths.createListing}>Sell a book</ButtonLink>
            ) : null}
          </div>
        ) : (
          <ul className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4">
            {shown.map((listing) => (
              <li key={listing._id}>
                <ListingCard
                  listing={listing}
                  sizes={COVER_SIZES}
                  actions={
                    <CardMenu
                      listing={listing}
                      isOpen={openMenu === listing._id}
                      onToggle={() =>
                        setOpenMenu((id) => (id === listing._id ? null : listing._id))
                      }
                    >
                      {listing.status === 'sold' ? (
                        <MenuButton
                          onClick={() => {
                            setActionError(null);
                            setOpenMenu(null);
                            relist.mutate(listing._id, {
                              onSuccess: () => onFeedback('blue', 'Listing is for sale again'),
                              onError,
                            });
                          }}
                        >
                          <ActionLabel verb="Relist" listing={listing} />
                        </MenuButton>
                      ) : (
                        <>
                          <Link
                            to={paths.updateListing(listing._id)}
                            className="flex min-h-11 w-full items-center px-3 text-sm text-slate-900 no-underline hover:bg-slate-100"
                          >
                            <ActionLabel verb="Edit" listing={listing} />
                          </Link>
                          <MenuButton
                            onClick={() => {
                              setActionError(null);
                              setOpenMenu(null);
                              setToSell(listing);
                            }}
                          >
                            <ActionLabel verb="Mark as sold" listing={listing} />
                          </MenuButton>
                        </>
                      )}
                      <Link
                        to={paths.messages(listing._id)}
                        className="flex min-h-11 w-full items-center px-3 text-sm text-slate-900 no-underline hover:bg-slate-100"
                      >
                        <ActionLabel verb="Messages" listing={listing} />
                      </Link>
                      <MenuButton
                        danger
                        onClick={() => {
                          setOpenMenu(null);
                          setToDelete(listing);
                        }}
                      >
                        <ActionLabel verb="Delete" listing={listing} />
                      </MenuButton>
                    </CardMenu>
                  }
                />
              </li>
            ))}
          </ul>
        )}
      </section>
      {relistSection('expired-listings-title', 'Expired', expired)}
      {withModerators.length > 0 ? (
        <section aria-labelledby="moderated-listings-title">
          <h3 id="moderated-listings-title" className="text-lg font-bold text-slate-900">
            With the moderators
          </h3>
          <p className="mt-1 text-sm text-slate-700">
            Hidden after reports or removed by the moderators: only you see them. Ask for a review
            of a hidden one and the moderators look at it first.
          </p>
          <ul className="mt-3 grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4">
            {withModerators.map((listing) => (
              <li key={listing._id}>
                <ListingCard
                  listing={listing}
                  sizes={COVER_SIZES}
                  actions={
                    listing.status === 'hidden' ? (
                      <RequestReview
                        listingId={listing._id}
                        listingName={displayName(listing.name)}
                        explain={false}
                      />
                    ) : undefined
                  }
                />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {toSell ? (
        <MarkSoldOf
          key={toSell._id}
          listing={toSell}
          onClose={() => setToSell(null)}
          onSold={() => onFeedback('green', 'Listing marked as sold')}
        />
      ) : null}
      <ConfirmModal
        open={toDelete !== null}
        title="Delete this listing?"
        confirmLabel="Delete listing"
        isBusy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
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

/** A card's actions behind one compact "Manage" button; Delete comes last, in red. */
function CardMenu({
  listing,
  isOpen,
  onToggle,
  children,
}: {
  listing: Listing;
  isOpen: boolean;
  onToggle(): void;
  children: ReactNode;
}) {
  const menuId = `listing-menu-${listing._id}`;
  return (
    <div className="relative w-full">
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={menuId}
        onClick={onToggle}
        className="flex min-h-11 w-full items-center justify-between rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-900 hover:bg-slate-100"
      >
        <ActionLabel verb="Manage" listing={listing} />
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4">
          <circle cx="4" cy="10" r="1.6" fill="currentColor" />
          <circle cx="10" cy="10" r="1.6" fill="currentColor" />
          <circle cx="16" cy="10" r="1.6" fill="currentColor" />
        </svg>
      </button>
      {isOpen ? (
        <div
          id={menuId}
          className="absolute inset-x-0 bottom-full z-20 mb-1 overflow-hidden rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          {children}
        </div>
      ) : null}
    </div>
  );
}

function MenuButton({
  onClick,
  danger = false,
  children,
}: {
  onClick(): void;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      className={`flex min-h-11 w-full items-center px-3 text-left text-sm hover:bg-slate-100 ${
        danger ? 'border-t border-slate-200 font-semibold text-red-700' : 'text-slate-900'
      }`}
    >
      {children}
    </button>
  );
}
