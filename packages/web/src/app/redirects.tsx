import { Navigate, useLocation } from 'react-router';

/** Redirects to `to`, keeping the query string (old links to /new-search still find their results). */
export function RedirectKeepingQuery({ to }: { to: string }) {
  const { search } = useLocation();
  return <Navigate to={`${to}${search}`} replace />;
}
