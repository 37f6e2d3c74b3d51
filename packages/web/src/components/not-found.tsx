import { PageTitle } from './page-title';
import { ButtonLink } from './ui/button-link';
import { paths } from '../config/paths';

/** The not-found page: an unknown address, or a listing that does not exist (HTTP 404 either way). */
export function NotFound() {
  return (
    <div className="mx-auto max-w-lg py-12 text-center">
      <PageTitle title="Page Not Found" />
      <p aria-hidden="true" className="text-7xl font-extrabold text-brand-600">
        404
      </p>
      <h1 className="mt-4 text-3xl font-bold text-slate-900">Uh-Oh! Page Not Found</h1>
      <p className="mt-2 text-lg text-slate-700">Page Not Found</p>
      <p className="mt-1 text-slate-700">
        The page you are looking for does not exist or has moved.
      </p>
      <ButtonLink to={paths.home} className="mt-6">
        Back to Home
      </ButtonLink>
    </div>
  );
}
