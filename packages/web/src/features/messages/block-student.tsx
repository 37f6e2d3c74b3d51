import type { Conversation } from '@campus-books/common/conversation.schemas';
import { useState } from 'react';
import { Link } from 'react-router';
import { useBlock, useBlockedStudents } from '../../api/blocks';
import { Button } from '../../components/ui/button';
import { ConfirmModal } from '../../components/ui/modal';
import { RequestError } from '../../components/ui/request-error';
import { paths } from '../../config/paths';

/** Why nobody can write here any more: a deleted account, or a block (the reader's or the other's). */
export function ReadOnlyNotice({ conversation }: { conversation: Conversation }) {
  const blocked = useBlockedStudents();
  const block = useBlock();
  const other = conversation.other;
  const iBlocked = Boolean(other.id && blocked.data?.some((student) => student.id === other.id));
  return (
    <div
      role="status"
      className="rounded-xl border border-slate-300 bg-slate-100 p-4 text-slate-900"
    >
      {other.username === null ? (
        <p>The other student deleted their account: this conversation is read-only.</p>
      ) : iBlocked ? (
        <div className="space-y-2">
          <p>
            You blocked {other.username}: neither of you can write here. You can unblock them here
            or in{' '}
            <Link to={paths.profile} className="link">
              your profile
            </Link>
            .
          </p>
          <Button
            variant="secondary"
            onClick={() => block.mutate({ userId: other.id!, block: false })}
            isLoading={block.isPending}
            loadingText="Unblocking..."
          >
            Unblock {other.username}
          </Button>
          <RequestError error={block.error} />
        </div>
      ) : (
        <p>This conversation is read-only: you can no longer write to {other.username}.</p>
      )}
    </div>
  );
}

/** "Block": after a confirmation, neither student can write to the other. */
export function BlockStudent({ conversation }: { conversation: Conversation }) {
  const [open, setOpen] = useState(false);
  const block = useBlock();
  const { id, username } = conversation.other;
  if (!id || !username) return null;
  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)}>
        Block {username}
      </Button>
      <RequestError error={block.error} />
      <ConfirmModal
        open={open}
        title={`Block ${username}?`}
        confirmLabel="Block"
        isBusy={block.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() =>
          block.mutate({ userId: id, block: true }, { onSettled: () => setOpen(false) })
        }
      >
        Neither of you will be able to start a conversation with or write to the other, and your
        conversations become read-only. You can unblock {username} in your profile.
      </ConfirmModal>
    </>
  );
}
