import { Link } from 'react-router';
import { PageTitle } from '../components/page-title';
import { Button } from '../components/ui/button';
import { paths } from '../config/paths';

/** A page's code failed to load: typically a new version was deployed while the tab was open. */
function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module|Failed to fetch/i.test(error.message)
  );
}

export function RouteError({ error }: { error: unknown }) {
  const message = isChunkLoadError(error)
    ? 'A new version of the site is available. Please reload the page.'
    : 'This page ran into a problem. Reloading usually helps.';

  return (
    <section className="mx-auto max-w-lg py-12 text-center" role="alert">
      <PageTitle title="Something went wrong" />
      <h1 className="text-2xl font-bold">Something went wrong!</h1>
      <p className="mt-3 text-slate-700">{message}</p>
      <div className="mt-6 flex items-center justify-center gap-4">
        <Button onClick={() => window.location.reload()}>Reload</Button>
        <Link to={paths.home} reloadDocument className="link">
          Back to Home
        </Link>
      </div>
    </section>
  );
}
