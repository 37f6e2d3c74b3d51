import { useId, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../config/paths';

/** The header's search box: prefilled from the URL's searchTerm; on /search it keeps the other filters. */
export function HeaderSearch({ className }: { className?: string }) {
  const inputId = useId();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const searchTerm = searchParams.get('searchTerm') ?? '';

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const term = String(new FormData(event.currentTarget).get('searchTerm') ?? '').trim();
    const params = new URLSearchParams(
      location.pathname === paths.search ? searchParams : undefined,
    );
    if (term) params.set('searchTerm', term);
    else params.delete('searchTerm');
    params.delete('startIndex');
    void navigate(`${paths.search}?${params.toString()}`);
  }

  return (
    <form
      role="search"
      aria-label="Site"
      // Before the app's code has run (or without it) the browser submits the form itself.
      action={paths.search}
      onSubmit={onSubmit}
      className={`flex items-center ${className ?? ''}`}
    >
      <label htmlFor={inputId} className="sr-only">
        Search books
      </label>
      <input
        // Remounting on a new URL term refills the box (back/forward, links).
        key={searchTerm}
        id={inputId}
        name="searchTerm"
        type="search"
        defaultValue={searchTerm}
        placeholder="Search..."
        className="w-full min-w-0 rounded-l-lg border border-slate-500 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-600"
      />
      <button
        type="submit"
        aria-label="Search books"
        className="rounded-r-lg border border-l-0 border-brand-700 bg-brand-700 px-3 py-2 text-white hover:bg-brand-800"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5">
          <circle cx="8.5" cy="8.5" r="5.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M13 13l4.5 4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </form>
  );
}
