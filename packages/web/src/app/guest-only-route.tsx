import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { Loading } from '../components/ui/spinner';
import { safeRedirectPath } from '../features/auth/safe-redirect';
import { fetchSessionUser, useSession } from '../lib/session';

/**
 * Sign-in and sign-up are for visitors: a signed-in student is sent where they meant to go (the
 * page's safe `redirectTo`, else home) instead of seeing a form they do not need. The user this
 * page holds may be out of date (signed out by another tab, or by a request the page did not
 * make): each visit asks the server first, and a session the server no longer knows shows the form.
 */
export function GuestOnlyRoute() {
  const { user, setUser } = useSession();
  const [searchParams] = useSearchParams();
  const { key } = useLocation();
  const isSignedIn = user !== null;
  /** The visit (location key) the server has confirmed the session for. */
  const [confirmed, setConfirmed] = useState<string | null>(null);

  useEffect(() => {
    if (!isSignedIn) return;
    const controller = new AbortController();
    fetchSessionUser(controller.signal)
      .then((current) => setUser(current))
      .catch(() => {
        // Offline or a server restarting: the user this page holds stands.
      })
      .finally(() => {
        if (!controller.signal.aborted) setConfirmed(key);
      });
    return () => controller.abort();
  }, [isSignedIn, key, setUser]);

  if (!user) return <Outlet />;
  if (confirmed !== key) return <Loading />;
  return <Navigate to={safeRedirectPath(searchParams.get('redirectTo'))} replace />;
}
