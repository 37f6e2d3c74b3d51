import type { Listing } from '@campus-books/common/listing.schemas';
import { useLocation } from 'react-router';
import { Button } from '../../components/ui/button';
import { ButtonLink } from '../../components/ui/button-link';
import { paths, signInPath } from '../../config/paths';
import { useSession } from '../../lib/session';

/** What the viewer can do: sign in first, contact the seller, or nothing (their own or a sold book). */
export function ListingAction({ listing }: { listing: Listing }) {
  const { user } = useSession();
  const location = useLocation();
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
  return (
    <ButtonLink to={paths.contactSeller(listing.userRef)} className={wide}>
      Contact Seller
    </ButtonLink>
  );
}
