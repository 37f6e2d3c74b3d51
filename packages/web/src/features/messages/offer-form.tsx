import { CONVERSATION_MESSAGES as M, offerSchema } from '@campus-books/common/conversation.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/form-field';
import { RequestError } from '../../components/ui/request-error';
import { useMakeOffer } from './api/conversation-api';
import { dollars } from './event-line';

/** An offer (the buyer) or a counter (the seller): whole dollars from 0 to the listing's price. */
export function OfferForm({
  conversationId,
  price,
  isCounter,
}: {
  conversationId: string;
  price: number;
  isCounter: boolean;
}) {
  const offer = useMakeOffer(conversationId);
  const schema = useMemo(
    () =>
      offerSchema.refine((value) => value.amount <= price, {
        message: M.offerAbovePrice,
        path: ['amount'],
      }),
    [price],
  );
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
  });
  const label = isCounter ? 'Counter offer ($)' : 'Your offer ($)';

  return (
    <form
      noValidate
      onSubmit={handleSubmit((input) =>
        offer.mutate(input.amount, { onSuccess: () => reset({ amount: undefined }) }),
      )}
      className="flex flex-wrap items-end gap-3"
    >
      <TextField
        className="w-40"
        label={label}
        type="number"
        inputMode="numeric"
        min={0}
        max={Math.floor(price)}
        step={1}
        hint={`Whole dollars, up to ${dollars(Math.floor(price))}`}
        error={errors.amount?.message}
        {...register('amount', { valueAsNumber: true })}
      />
      <Button
        type="submit"
        variant="secondary"
        isLoading={offer.isPending}
        loadingText="Sending..."
      >
        {isCounter ? 'Send counter offer' : 'Make offer'}
      </Button>
      <RequestError error={offer.error} className="w-full" />
    </form>
  );
}
