import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { ButtonLink } from '../../components/ui/button-link';
import { ConfirmModal } from '../../components/ui/modal';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';
import { useDeleteUser } from './api/delete-user';

/** Create Listing, My Listings, Delete account and Sign out; the last two ask for confirmation. */
export function AccountActions({
  userId,
  isListingsOpen,
  onToggleListings,
}: {
  userId: string;
  isListingsOpen: boolean;
  onToggleListings(): void;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { setUser, signOut } = useSession();
  const deleteUser = useDeleteUser();
  const [dialog, setDialog] = useState<'delete' | 'sign-out' | null>(null);
  const [isSigningOut, setIsSigningOut] = useState(false);

  // Forgetting the user while this protected page is on screen would make its guard send us to
  // /sign-in; so go home first and forget the user once home has replaced this page.
  const afterLeaving = useRef<(() => void) | null>(null);
  useEffect(() => {
    const pending = afterLeaving;
    return () => pending.current?.();
  }, []);
  const leaveThen = (run: () => void) => {
    afterLeaving.current = run;
    navigate(paths.home, { replace: true });
  };

  const confirmDelete = () =>
    deleteUser.mutate(userId, {
      onSuccess: () =>
        leaveThen(() => {
          // The server already ended the session with the account; just forget it here.
          setUser(null);
          queryClient.clear();
        }),
    });

  const confirmSignOut = () => {
    setIsSigningOut(true);
    // signOut clears the local session even when the server cannot be reached.
    leaveThen(() => void signOut().catch(() => undefined));
  };

  return (
    <div className="grid grid-cols-2 gap-3">
      <ButtonLink to={paths.createListing}>Create Listing</ButtonLink>
      <Button
        variant="secondary"
        aria-expanded={isListingsOpen}
        aria-controls="my-listings"
        onClick={onToggleListings}
      >
        My Listings
      </Button>
      <Button variant="danger" onClick={() => setDialog('delete')}>
        Delete account
      </Button>
      <Button variant="secondary" onClick={() => setDialog('sign-out')}>
        Sign out
      </Button>

      <ConfirmModal
        open={dialog === 'delete'}
        title="Delete your account?"
        confirmLabel="Yes, delete my account"
        isBusy={deleteUser.isPending}
        onConfirm={confirmDelete}
        onCancel={() => {
          deleteUser.reset();
          setDialog(null);
        }}
      >
        <p>Your profile, all your listings and their photos are removed for good.</p>
        {deleteUser.isError ? (
          <p role="alert" className="mt-2 font-medium text-red-700">
            {deleteUser.error.message}
          </p>
        ) : null}
      </ConfirmModal>
      <ConfirmModal
        open={dialog === 'sign-out'}
        title="Sign out?"
        confirmLabel="Yes, sign out"
        isBusy={isSigningOut}
        onConfirm={confirmSignOut}
        onCancel={() => setDialog(null)}
      >
        <p>You can sign in again at any time.</p>
      </ConfirmModal>
    </div>
  );
}
