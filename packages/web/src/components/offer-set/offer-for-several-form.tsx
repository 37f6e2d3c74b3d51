import { displayName, formatPrice } from '@campus-books/common/display';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { useListingBundleCandidates, useOfferFromListing } from '../../api/offer-sets';
import { paths } from '../../config/paths';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { Button } from '../ui/button';
import { SelectField, TextAreaField, TextField } from '../ui/form-field';
import { RequestError } from '../ui/request-error';
import { Loading } from '../ui/spinner';
import { BundlePicker } from './bundle-picker';
import {
  chosenBooks,
  offerLimit,
  pageOfferFormSchema,
  refusedBook,
  type OfferBook,
} from './offer-set';

const NONE: never[] = [];

/**
 * The form of "Offer for several books", loaded when its dialog first opens: the listing page and
 * the profile do not carry the form library for a button most visitors never press.
 */
export default function OfferForSeveralForm({
  book,
  choices,
  onCancel,
}: {
  book: OfferBook;
  choices: readonly OfferBook[] | undefined;
  onCancel(): void;
}) {
  const navigate = useNavigate();
  const [first, setFirst] = useState<OfferBook>(book);
  // One key per form: a double tap or a retry of the same offer makes one offer.
  const [key] = useState(newIdempotencyKey);
  const query = useListingBundleCandidates(first.id, true);
  const candidates = query.data?.listings ?? NONE;
  const offer = useOfferFromListing();
  const schema = useMemo(() => pageOfferFormSchema(first.price, candidates), [first, candidates]);
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors, isSubmitted },
  } = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { listingIds: [], text: '' },
  });
  const chosenIds = useWatch({ control, name: 'listingIds' }) ?? NONE;
  const chosen = chosenBooks(candidates, chosenIds);
  const { maximum, books } = offerLimit(first.price, null, candidates, chosenIds);
  const refused = offer.error ? refusedBook(offer.error.message, candidates) : null;

  return (
    <form
      noValidate
      className="mt-3 flex flex-col gap-4"
      onSubmit={handleSubmit((input) =>
        offer.mutate(
          {
            listingId: first.id,
            amount: input.amount,
            listingIds: chosenBooks(candidates, input.listingIds ?? []).map((other) => other.id),
            ...(input.text?.trim() ? { text: input.text } : {}),
            clientId: key,
          },
          { onSuccess: (sent) => void navigate(paths.conversation(sent.conversationId)) },
        ),
      )}
    >
      {choices && choices.length > 1 ? (
        <SelectField
          label="Start with"
          hint="The offer is about this book; the seller’s other books follow."
          value={first.id}
          onChange={(event) => {
            const next = choices.find((choice) => choice.id === event.target.value);
            if (!next) return;
            setFirst(next);
            setValue('listingIds', []);
          }}
        >
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {displayName(choice.title)} ({formatPrice(choice.price)})
            </option>
          ))}
        </SelectField>
      ) : (
        <p>
          <span dir="auto" className="font-semibold wrap-anywhere">
            {displayName(first.title)}
          </span>{' '}
          ({formatPrice(first.price)})
        </p>
      )}
      {query.isPending ? <Loading /> : null}
      <RequestError error={query.error} />
      {candidates.length > 0 ? (
        <BundlePicker
          candidates={candidates}
          chosenIds={chosenIds}
          ownPrice={first.price}
          chosen={chosen}
          refused={refused && offer.error ? { id: refused.id, message: offer.error.message } : null}
          onToggle={(id, checked) =>
            setValue(
              'listingIds',
              checked ? [...chosenIds, id] : chosenIds.filter((other) => other !== id),
              { shouldValidate: isSubmitted },
            )
          }
        />
      ) : query.isSuccess ? (
        <p className="text-slate-700">This seller has no other books for sale.</p>
      ) : null}
      <TextField
        className="w-40"
        label="Your offer ($)"
        type="number"
        inputMode="numeric"
        min={0}
        max={maximum}
        step={1}
        hint={`Whole dollars, up to ${formatPrice(maximum)}${books > 1 ? ` for the ${books} books` : ''}`}
        error={errors.amount?.message}
        {...register('amount', { valueAsNumber: true })}
      />
      <TextAreaField
        label="Message (optional)"
        rows={3}
        error={errors.text?.message}
        {...register('text')}
      />
      <RequestError error={offer.error} />
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onCancel} disabled={offer.isPending}>
          Cancel
        </Button>
        <Button type="submit" isLoading={offer.isPending} loadingText="Sending...">
          {books > 1 ? `Make offer for ${books} books` : 'Make offer'}
        </Button>
      </div>
    </form>
  );
}
