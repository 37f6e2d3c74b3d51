import type { OfferListing } from '@campus-books/common/offer-sets';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/form-field';
import { RequestError } from '../../components/ui/request-error';
import { useBundleCandidates, useMakeOffer } from './api/conversation-api';
import { BundlePicker } from '../../components/offer-set/bundle-picker';
import { dollars } from './event-line';
import {
  chosenBooks,
  offerFormSchema,
  offerLimit,
  refusedBook,
} from '../../components/offer-set/offer-set';

const NONE: never[] = [];

/**
 * An offer (the buyer, who may add more books of the seller's: one offer for the set, issue 44) or
 * a counter (the seller, for the set offered): whole dollars from 0 to the books' price together.
 */
export function OfferForm({
  conversationId,
  price,
  isCounter,
  counterSet,
}: {
  conversationId: string;
  /** The conversation's listing's price. */
  price: number;
  isCounter: boolean;
  /** The books of the offer a counter answers (their price together is its most). */
  counterSet?: readonly OfferListing[];
}) {
  const offer = useMakeOffer(conversationId);
  const candidates = useBundleCandidates(conversationId, !isCounter).data?.listings ?? NONE;
  const counter = isCounter ? (counterSet ?? NONE) : null;
  const schema = useMemo(
    () => offerFormSchema(price, counter, candidates),
    [price, counter, candidates],
  );
  const {
    register,
    handleSubmit,
    reset,
    control,
    setValue,
    formState: { errors, isSubmitted },
  } = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { listingIds: [] },
  });
  const chosenIds = useWatch({ control, name: 'listingIds' }) ?? NONE;
  const chosen = chosenBooks(candidates, chosenIds);
  const { maximum, books } = offerLimit(price, counter, candidates, chosenIds);
  const refused = offer.error ? refusedBook(offer.error.message, candidates) : null;
  const label = isCounter ? 'Counter offer ($)' : 'Your offer ($)';

  return (
    <form
      noValidate
      onSubmit={handleSubmit((input) =>
        offer.mutate(
          {
            amount: input.amount,
            listingIds: isCounter
              ? []
              : chosenBooks(candidates, input.listingIds ?? []).map((book) => book.id),
          },
          { onSuccess: () => reset({ amount: undefined, listingIds: [] }) },
        ),
      )}
      className="flex flex-wrap items-end gap-3"
    >
      {!isCounter && candidates.length > 0 ? (
        <BundlePicker
          candidates={candidates}
          chosenIds={chosenIds}
          ownPrice={price}
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
      ) : null}
      <TextField
        className="w-40"
        label={label}
        type="number"
        inputMode="numeric"
        min={0}
        max={maximum}
        step={1}
        hint={`Whole dollars, up to ${dollars(maximum)}${books > 1 ? ` for the ${books} books` : ''}`}
        error={errors.amount?.message}
        {...register('amount', { valueAsNumber: true })}
      />
      <Button
        type="submit"
        variant="secondary"
        isLoading={offer.isPending}
        loadingText="Sending..."
      >
        {isCounter
          ? 'Send counter offer'
          : books > 1
            ? `Make offer for ${books} books`
            : 'Make offer'}
      </Button>
      <RequestError error={offer.error} className="w-full" />
    </form>
  );
}
