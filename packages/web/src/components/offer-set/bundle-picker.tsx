import { displayName, formatPrice } from '@campus-books/common/display';
import type { BundleCandidate } from '@campus-books/common/offer-sets';
import { useId } from 'react';
import { Badge } from '../ui/badge';
import { setTotalLine } from './offer-set';

/**
 * "Add more books from this seller" in the buyer's offer form (issue 44): a box per other listing of
 * the seller's, those of the same course first with a badge (not ticked for the buyer: an offer's
 * amount is typed for the books chosen, and a suggestion ticked unasked would raise it silently),
 * those that cannot be added disabled with the reason, and the books' price together. A refusal of
 * the server shows under the book it names.
 */
export function BundlePicker({
  candidates,
  chosenIds,
  ownPrice,
  chosen,
  refused,
  onToggle,
}: {
  candidates: readonly BundleCandidate[];
  chosenIds: readonly string[];
  ownPrice: number;
  chosen: readonly BundleCandidate[];
  refused: { id: string; message: string } | null;
  onToggle(id: string, checked: boolean): void;
}) {
  const id = useId();
  const total = setTotalLine(ownPrice, chosen);
  return (
    <fieldset className="w-full min-w-0 space-y-2" aria-describedby={`${id}-hint`}>
      <legend className="font-semibold text-slate-900">Add more books from this seller</legend>
      <p id={`${id}-hint`} className="text-sm text-slate-700">
        One offer for every book you tick: the seller accepts or declines them together.
      </p>
      <ul className="space-y-1">
        {candidates.map((book) => {
          const errorId = `${id}-${book.id}-refused`;
          const isRefused = refused?.id === book.id;
          return (
            <li key={book.id}>
              <label
                className={`flex min-h-11 items-center gap-3 rounded-lg px-2 py-1 ${
                  book.available ? 'cursor-pointer hover:bg-slate-50' : ''
                }`}
              >
                <input
                  type="checkbox"
                  className="size-5 shrink-0 accent-brand-700"
                  checked={book.available && chosenIds.includes(book.id)}
                  disabled={!book.available}
                  aria-invalid={isRefused ? true : undefined}
                  aria-describedby={isRefused ? errorId : undefined}
                  onChange={(event) => onToggle(book.id, event.target.checked)}
                />
                <span className="min-w-0 flex-1">
                  <span dir="auto" className="block font-medium wrap-anywhere text-slate-900">
                    {displayName(book.title)}
                  </span>
                  <span className="flex flex-wrap items-center gap-x-2 text-sm text-slate-700">
                    {formatPrice(book.price)}
                    {book.suggested ? <Badge color="blue">Same course</Badge> : null}
                    {book.reason ? <span className="font-medium">{book.reason}</span> : null}
                  </span>
                </span>
              </label>
              {isRefused ? (
                <p id={errorId} className="ml-10 text-sm font-medium text-red-800">
                  {refused.message}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      <p aria-live="polite" className="font-semibold text-slate-900">
        {total ?? `This book alone: ${formatPrice(ownPrice)}`}
      </p>
    </fieldset>
  );
}
