import { displayName, formatPrice } from '@campus-books/common/display';
import type { OfferListing } from '@campus-books/common/offer-sets';
import { Link } from 'react-router';
import { paths } from '../../config/paths';

/** What a book of an offer shows after its price: sold, gone, or nothing while for sale. */
function bookState(book: OfferListing, activeState: string): string {
  if (book.status === 'sold') return 'Sold';
  if (book.status === 'expired') return 'No longer for sale';
  if (book.status === 'unavailable') return 'No longer available';
  return activeState;
}

/**
 * The books of an offer for several books (issue 44), each title linked to its listing (only the
 * title of one hidden or deleted since); nothing for an offer of one book.
 */
export function OfferBooks({
  listings,
  label,
  className = '',
  activeState = '',
}: {
  listings: readonly OfferListing[];
  label: string;
  className?: string;
  /** What a book still for sale shows ("On hold" for a held set's). */
  activeState?: string;
}) {
  if (listings.length < 2) return null;
  return (
    <ul aria-label={label} className={`space-y-1 text-left text-sm ${className}`.trim()}>
      {listings.map((book) => {
        const state = bookState(book, activeState);
        return (
          <li key={book.id} className="flex items-center justify-between gap-3">
            {book.status === 'unavailable' ? (
              <span dir="auto" className="min-w-0 wrap-anywhere text-slate-800">
                {displayName(book.title)}
              </span>
            ) : (
              <Link
                to={paths.listing(book.id)}
                dir="auto"
                className="inline-flex min-h-11 min-w-0 items-center font-medium wrap-anywhere text-brand-900 underline"
              >
                {displayName(book.title)}
              </Link>
            )}
            <span className="shrink-0 text-slate-800">
              {book.price === null ? '' : formatPrice(book.price)}
              {state ? <span className="ml-1 font-semibold">{state}</span> : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
