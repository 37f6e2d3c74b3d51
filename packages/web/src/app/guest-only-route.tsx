import { Navigate, Outlet, useSearchParams } from 'react-router';
import { safeRedirectPath } from '../features/auth/safe-redirect';
import { useSession } from '../lib/session';

/**
 * Sign-in and sign-up are for visitors: a signed-in student is sent where they meant to go (the
 * page's safe `redirectTo`, else home) instead of seeing a form they do not need.
 */
export function GuestOnlyRoute() {
  const { user } = useSession();
  const [searchParams] = useSearchParams();
  if (user) return <Navigate to={safeRedirectPath(searchParams.get('redirectTo'))} replace />;
  return <Outlet />;
}
