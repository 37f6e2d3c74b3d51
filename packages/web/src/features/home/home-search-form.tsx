import { useId, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../config/paths';

/** The hero's search: goes to /search?searchTerm=…, prefilled from this page's URL. */
export function HomeSearchForm() {
  const inputId = useId();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const searchTerm = searchParams.get('searchTerm') ?? '';

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const term = String(new FormData(event.currentTarget).get('searchTerm') ?? '').trim();
    void navigate(
      term ? `${paths.search}?${new URLSearchParams({ searchTerm: term })}` : paths.search,
    );
  }

  return (
    <form
      role="search"
      aria-label="Books"
      // Before the app's code has run (or without it) the browser submits the form itself.
      action={paths.search}
      onSubmit={onSubmit}
      className="mx-auto flex w-full max-w-xl overflow-hidden rounded-xl bg-white shadow-lg ring-1 ring-slate-300"
    >
      <label htmlFor={inputId} className="sr-only">
        Search for a book by name or course
      </label>
      <input
        key={searchTerm}
        id={inputId}
        name="searchTerm"
        type="search"
        defaultValue={searchTerm}
        placeholder="Start Searching..."
        className="min-w-0 flex-1 px-4 py-3 text-base text-slate-900 placeholder:text-slate-600 focus-visible:outline-offset-[-3px]"
      />
      <button
        type="submit"
        className="bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-offset-[-3px]"
      >
        Search
      </button>
    </form>
  );
}
