import { Navigate, Outlet, useLocation } from 'react-router';
import { Loading } from '../components/ui/spinner';
import { signInPath } from '../config/paths';
import { useSession } from '../lib/session';

/** The signed-in-only group: a visitor goes to /sign-in?redirectTo=<where they were going>. */
export function ProtectedRoute() {
  const { user, isLoading } = useSession();
  const location = useLocation();
  if (user) return <Outlet />;
  if (isLoading) return <Loading />;
  return <Navigate to={signInPath(location.pathname + location.search)} replace />;
}
