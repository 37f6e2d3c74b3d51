import { useSession } from '../lib/session';
import { useSavedListings, useToggleSaved } from '../api/saved-api';

/** The heart: saves a listing for a signed-in student (nothing for a visitor). */
export function SaveButton({
  listingId,
  listingName,
  className = '',
}: {
  listingId: string;
  listingName: string;
  className?: string;
}) {
  const { user } = useSession();
  const saved = useSavedListings(Boolean(user?.emailVerified));
  const toggle = useToggleSaved();
  if (!user?.emailVerified) return null;
  const isSaved =
    toggle.isPending && toggle.variables
      ? toggle.variables.save
      : Boolean(saved.data?.some((l) => l._id === listingId));
  return (
    <button
      type="button"
      aria-pressed={isSaved}
      aria-label={`Save ${listingName}`}
      title={isSaved ? 'Saved' : 'Save'}
      onClick={() => toggle.mutate({ listingId, save: !isSaved })}
      className={`inline-flex h-11 w-11 items-center justify-center rounded-full border border-slate-300 bg-white text-xl shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-900 ${isSaved ? 'text-red-700' : 'text-slate-700'} ${className}`}
    >
      <span aria-hidden="true">{isSaved ? '♥' : '♡'}</span>
    </button>
  );
}
