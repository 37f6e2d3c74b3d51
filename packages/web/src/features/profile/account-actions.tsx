import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { ButtonLink } from '../../components/ui/button-link';
import { TextField } from '../../components/ui/form-field';
import { ConfirmModal } from '../../components/ui/modal';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';
import { useDeleteUser } from './api/delete-user';
import { RequestError } from '../../components/ui/request-error';

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
  const [currentPassword, setCurrentPassword] = useState('');

  // Forgetting the user while this protected page is on screen would make its guard send us to
  // /sign-in; so go home first and forget the user once home has replaced this page.
  const afterLeaving = useRef<(() => void) | null>(null);
  useEffect(() => {
    const pending = afterLeaving;
    return () => pending.current?.();
  }, []);
  const leaveThen = (run: () => void) => {
    afterLeaving.current = run;
    void navigate(paths.home, { replace: true });
  };

  const confirmDelete = () =>
    deleteUser.mutate(
      { userId, currentPassword },
      {
        onSuccess: () =>
          leaveThen(() => {
            // The server already ended the session with the account; just forget it here.
            setUser(null);
            queryClient.clear();
          }),
      },
    );

  const confirmSignOut = () => {
    setIsSigningOut(true);
    // signOut clears the local session even when the server cannot be reached.
    leaveThen(() => void signOut().catch(() => undefined));
  };

  return (
    <div className="grid grid-cols-2 gap-3">
      <ButtonLink to={paths.createListing}>Create Listing</ButtonLink>
      <ButtonLink variant="secondary" to={paths.profileAlerts}>
        My Alerts
      </ButtonLink>
      <ButtonLink variant="secondary" to={paths.saved}>
        Saved Listings
      </ButtonLink>
      <Button
        variant="secondary"
        aria-expanded={isListingsOpen}
        aria-controls="my-listings"
        onClick={onToggleListings}
      >
        My Listings
      </Button>
      <Button variant="secondary" onClick={() => setDialog('sign-out')} className="col-span-2">
        Sign out
      </Button>
      {/* The one destructive action, apart from the everyday ones. */}
      <div className="col-span-2 mt-4 border-t border-slate-200 pt-4 text-center">
        <Button
          variant="ghost"
          className="text-red-700 hover:bg-red-50"
          onClick={() => setDialog('delete')}
        >
          Delete account
        </Button>
      </div>

      <ConfirmModal
        open={dialog === 'delete'}
        title="Delete your account?"
        confirmLabel="Yes, delete my account"
        isBusy={deleteUser.isPending}
        onConfirm={confirmDelete}
        onCancel={() => {
          deleteUser.reset();
          setCurrentPassword('');
          setDialog(null);
        }}
      >
        <p>Your profile, all your listings and their photos are removed for good.</p>
        <TextField
          className="mt-3"
          label="Current password"
          type="password"
          autoComplete="current-password"
          hint="Enter your password to confirm."
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
        <RequestError error={deleteUser.error} className="mt-2" />
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
