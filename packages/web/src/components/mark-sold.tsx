import type { ApiMessage } from '@campus-books/common/api';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useConversations } from '../api/conversations';
import { Button } from './ui/button';
import { ConfirmModal } from './ui/modal';
import { RequestError } from './ui/request-error';

const SOMEONE_ELSE = 'someone-else';

type SoldMutation = UseMutationResult<ApiMessage, Error, string | null>;

/**
 * "Sold to whom?": one of the students who wrote about the listing, or someone else; sends the
 * choice (a buyer's id, or null) through `mutation` (POST /api/conversations/listing/{id}/sold).
 */
export function MarkSoldDialog({
  open,
  listingId,
  defaultBuyerId,
  mutation,
  onClose,
  onSold,
  note,
}: {
  open: boolean;
  listingId: string;
  defaultBuyerId: string | null;
  mutation: SoldMutation;
  onClose(): void;
  onSold?(): void;
  /** What else the sale does (the other books of a held set, issue 44). */
  note?: string;
}) {
  const [choice, setChoice] = useState(defaultBuyerId ?? SOMEONE_ELSE);
  const conversations = useConversations(listingId, { enabled: open });
  const buyers = new Map<string, string>();
  for (const conversation of conversations.data ?? []) {
    if (conversation.role === 'seller' && conversation.other.id && conversation.other.username) {
      buyers.set(conversation.other.id, conversation.other.username);
    }
  }
  return (
    <ConfirmModal
      open={open}
      title="Sold to whom?"
      confirmLabel="Mark sold"
      isBusy={mutation.isPending}
      onCancel={onClose}
      onConfirm={() =>
        mutation.mutate(choice === SOMEONE_ELSE ? null : choice, {
          onSuccess: () => {
            onClose();
            onSold?.();
          },
        })
      }
    >
      {note ? <p className="mb-3 text-slate-800">{note}</p> : null}
      <fieldset>
        <legend className="mb-2">The students who wrote to you about this book:</legend>
        {[...buyers, [SOMEONE_ELSE, 'Someone else'] as const].map(([id, name]) => (
          <label key={id} className="flex min-h-11 items-center gap-3 text-base text-slate-900">
            <input
              type="radio"
              name="sold-to"
              value={id}
              checked={choice === id}
              onChange={() => setChoice(id)}
              className="size-5"
            />
            {name}
          </label>
        ))}
      </fieldset>
      <RequestError error={mutation.error} className="mt-2" />
    </ConfirmModal>
  );
}

/** "Mark sold" and its "sold to whom?" dialog (the thread's deal panel). */
export function MarkSold({
  listingId,
  defaultBuyerId,
  mutation,
  note,
}: {
  listingId: string;
  defaultBuyerId: string | null;
  mutation: SoldMutation;
  note?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Mark sold
      </Button>
      <MarkSoldDialog
        open={open}
        listingId={listingId}
        defaultBuyerId={defaultBuyerId}
        mutation={mutation}
        note={note}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
