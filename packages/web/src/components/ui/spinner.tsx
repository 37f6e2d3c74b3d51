/** The spec's loading state: 'Loading...', announced to screen readers. */
export function Loading() {
  return (
    <p role="status" className="flex items-center gap-2 py-8 text-slate-700">
      <span
        aria-hidden="true"
        className="size-4 animate-spin rounded-full border-2 border-brand-600 border-t-transparent"
      />
      Loading...
    </p>
  );
}
