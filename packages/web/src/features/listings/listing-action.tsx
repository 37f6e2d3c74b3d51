import type { Listing } from '@campus-books/common/listing.schemas';
import { useLocation } from 'react-router';
import { useSeller } from '../../api/get-seller';
import { Button } from '../../components/ui/button';
import { ButtonLink } from '../../components/ui/button-link';
import { paths, signInPath } from '../../config/paths';
import { useSession } from '../../lib/session';

/**
 * What the viewer can do: sign in first; write to the seller ("Message seller", the primary action,
 * with the seller's GroupMe as a second way when they gave a link); or nothing (their own or a sold
 * book).
 */
export function ListingAction({ listing }: { listing: Listing }) {
  const { user } = useSession();
  const location = useLocation();
  const canMessage = Boolean(user?.emailVerified) && user?._id !== listing.userRef;
  // The same query as the seller's name above: asked once.
  const seller = useSeller(listing.userRef, { enabled: canMessage });
  const wide = 'w-full sm:w-auto';

  if (user && user._id === listing.userRef) {
    return (
      <div className="flex flex-wrap gap-3">
        <Button disabled className={wide}>
          Your Listing
        </Button>
        <ButtonLink to={paths.updateListing(listing._id)} variant="secondary" className={wide}>
          Edit listing
        </ButtonLink>
      </div>
    );
  }
  if (listing.status === 'sold') {
    return (
      <Button disabled className={wide}>
        Sold
      </Button>
    );
  }
  if (!user) {
    return (
      <ButtonLink to={signInPath(location.pathname)} className={wide}>
        Sign In to Contact Seller
      </ButtonLink>
    );
  }
  if (!canMessage || listing.status !== 'active') {
    // A verified student's page knows whether the seller gave a GroupMe link: offered only then.
    if (canMessage && !seller.data?.groupmelink) return null;
    return (
      <ButtonLink to={paths.contactSeller(listing.userRef)} className={wide}>
        Contact Seller
      </ButtonLink>
    );
  }
  // Each button at least as wide as its label on one line (or the whole line): a narrow screen or
  // large text puts the second under the first rather than breaking a word.
  return (
    <div className="flex flex-wrap gap-3">
      <ButtonLink to={paths.messageSeller(listing._id)} className="min-w-fit flex-1 sm:flex-none">
        Message seller
      </ButtonLink>
      {seller.data?.groupmelink ? (
        <ButtonLink
          to={paths.contactSeller(listing.userRef)}
          variant="secondary"
          aria-label="Contact Seller on GroupMe"
          className="min-w-fit flex-1 sm:flex-none"
        >
          <span className="sm:hidden">GroupMe</span>
          <span className="hidden sm:inline">Contact Seller</span>
        </ButtonLink>
      ) : null}
    </div>
  );
}
