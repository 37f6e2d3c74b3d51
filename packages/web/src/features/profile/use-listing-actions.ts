import type { Listing } from '@campus-books/common/listing.schemas';
import { useState } from 'react';
import { useDeleteListing } from '../../api/listings/delete-listing';
import { useRelistListing } from '../../api/listings/relist-listing';
import type { BannerTone } from '../../components/ui/banner';

/**
 * What the owner can do to a listing from My Listings, each written once: relist it (from the Sold
 * tab's menu and from the Expired list alike), ask who bought it, delete it after a confirmation.
 * A failure shows once, above the tabs, until the next action.
 */
export function useListingActions(onFeedback: (tone: BannerTone, message: string) => void) {
  const relist = useRelistListing();
  const remove = useDeleteListing();
  const [error, setError] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<Listing | null>(null);
  const [toSell, setToSell] = useState<Listing | null>(null);
  const onError = (failure: Error) => setError(failure.message);

  return {
    error,
    toDelete,
    toSell,
    isDeleting: remove.isPending,
    isRelisting: (listing: Listing) => relist.isPending && relist.variables === listing._id,
    relist(listing: Listing) {
      setError(null);
      relist.mutate(listing._id, {
        onSuccess: () => onFeedback('blue', 'Listing is for sale again'),
        onError,
      });
    },
    askWhoBought(listing: Listing) {
      setError(null);
      setToSell(listing);
    },
    closeWhoBought: () => setToSell(null),
    askToDelete: (listing: Listing) => setToDelete(listing),
    cancelDelete: () => setToDelete(null),
    confirmDelete() {
      if (!toDelete) return;
      setError(null);
      remove.mutate(toDelete._id, {
        onSuccess: () => {
          setToDelete(null);
          onFeedback('amber', 'Listing deleted');
        },
        onError,
      });
    },
  };
}

export type ListingActions = ReturnType<typeof useListingActions>;
