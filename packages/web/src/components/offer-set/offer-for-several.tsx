import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../ui/button';
import { Loading } from '../ui/spinner';
import type { OfferBook } from './offer-set';

const OfferForSeveralForm = lazy(() => import('./offer-for-several-form'));

/**
 * "Offer for several books" on a listing's page or its seller's profile (issue 44): a dialog with
 * the seller's other books (the same course first, unavailable ones disabled with the reason), one
 * amount for the set and a message. Sending opens (or finds) the conversation about the first book
 * and posts the offer in one request, then goes to the thread. On the profile the buyer first says
 * which book the offer starts with (`choices`); on a listing's page it is that listing.
 */
export function OfferForSeveral({
  book,
  choices,
}: {
  book: OfferBook;
  choices?: readonly OfferBook[];
}) {
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || !open || dialog.open) return;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus?.();
    };
  }, [open]);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Offer for several books
      </Button>
      <dialog
        ref={dialogRef}
        aria-labelledby={titleId}
        onCancel={(event) => {
          event.preventDefault();
          setOpen(false);
        }}
        className="m-auto max-h-[calc(100dvh-1rem)] w-[min(34rem,calc(100%-1rem))] overflow-y-auto rounded-xl bg-white p-4 text-slate-900 shadow-xl backdrop:bg-slate-900/50 sm:p-6"
      >
        <h2 id={titleId} className="text-lg font-bold">
          One offer for several books
        </h2>
        {open ? (
          <Suspense fallback={<Loading />}>
            <OfferForSeveralForm book={book} choices={choices} onCancel={() => setOpen(false)} />
          </Suspense>
        ) : null}
      </dialog>
    </>
  );
}
