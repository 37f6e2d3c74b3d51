import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';
import { useCreateListing } from './api/create-listing';
import { clearListingDraft, readListingDraft, saveListingDraft } from './listing-draft';
import { ListingForm } from './listing-form';
import { ListingFormLayout } from './listing-form-layout';
import { NEW_LISTING_VALUES, type ListingFormValues } from './listing-form-values';

interface FormSession {
  /** Remounts the form with fresh values when the draft is discarded. */
  key: number;
  values: ListingFormValues;
  idempotencyKey: string;
  restored: boolean;
}

function startSession(userId: string | undefined, key: number): FormSession {
  const draft = userId ? readListingDraft(userId) : null;
  return draft
    ? {
        key,
        values: { ...NEW_LISTING_VALUES, ...draft.values },
        idempotencyKey: draft.idempotencyKey,
        restored: true,
      }
    : { key, values: NEW_LISTING_VALUES, idempotencyKey: crypto.randomUUID(), restored: false };
}

export default function CreateListingPage() {
  const navigate = useNavigate();
  const create = useCreateListing();
  const userId = useSession().user?._id;
  const [session, setSession] = useState(() => startSession(userId, 0));

  function discardDraft() {
    if (userId) clearListingDraft(userId);
    create.reset();
    setSession({
      key: session.key + 1,
      values: NEW_LISTING_VALUES,
      idempotencyKey: crypto.randomUUID(),
      restored: false,
    });
  }

  return (
    <ListingFormLayout title="Create a Listing">
      <p className="mb-4 text-sm text-slate-700">
        Clearing a shelf?{' '}
        <Link to={paths.sellMyShelf} className="inline-flex min-h-11 items-center underline">
          Sell several books
        </Link>{' '}
        in a row and publish them all at once.
      </p>
      {session.restored ? (
        <div
          role="status"
          className="mb-5 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900"
        >
          <p>Draft restored: your unsaved listing is back.</p>
          <Button variant="secondary" className="min-h-11" onClick={discardDraft}>
            Discard draft
          </Button>
        </div>
      ) : null}
      <ListingForm
        key={session.key}
        mode="create"
        defaultValues={session.values}
        isSubmitting={create.isPending}
        submitError={create.error}
        onChange={(values) => {
          if (userId) saveListingDraft(userId, { values, idempotencyKey: session.idempotencyKey });
        }}
        onSubmit={(input) =>
          create.mutate(
            { input, idempotencyKey: session.idempotencyKey },
            {
              onSuccess: (listing) => {
                if (userId) clearListingDraft(userId);
                void navigate(paths.listing(listing._id));
              },
            },
          )
        }
      />
    </ListingFormLayout>
  );
}
