import type { ModerationLogEntry } from '@campus-books/common/moderation.schemas';
import { Button } from '../../components/ui/button';
import { RequestError } from '../../components/ui/request-error';
import { useModerationAction } from './api/moderation';
import { when } from './queue-item';

/** How each action reads in the log. */
const ACTION_LABELS: Record<ModerationLogEntry['action'], string> = {
  dismiss: 'dismissed the reports on',
  remove: 'removed',
  restore: 'restored',
  suspend: 'suspended',
  unsuspend: 'unsuspended',
  remove_rating: 'removed rating',
  dismiss_rating: 'dismissed the reports on rating',
  'seller-delete': 'deleted (the seller, while under moderation)',
  read_conversation: 'read the reported conversation',
  dismiss_conversation: 'dismissed the reports on conversation',
};

/** A removal undone from its log line: the listing is active again (409 when it no longer is removed). */
function RestoreButton({ listingId }: { listingId: string }) {
  const restore = useModerationAction();
  return (
    <span className="mt-1 flex flex-wrap items-center gap-2">
      <Button
        variant="secondary"
        isLoading={restore.isPending}
        loadingText="Restoring..."
        onClick={() => restore.mutate({ kind: 'restore', listingId })}
      >
        Restore<span className="sr-only"> listing {listingId}</span>
      </Button>
      <RequestError error={restore.error} />
    </span>
  );
}

/** The audit log, newest first; a listing's latest line that removed it offers Restore. */
export function AuditLog({ entries }: { entries: ModerationLogEntry[] }) {
  const latest = new Set<string>();
  return (
    <ul className="mt-3 space-y-2 text-sm">
      {entries.map((entry) => {
        const isLatestOfListing = entry.listingId !== null && !latest.has(entry.listingId);
        if (entry.listingId) latest.add(entry.listingId);
        return (
          <li key={entry._id} className="wrap-anywhere">
            <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time>: {entry.moderatorEmail}{' '}
            <strong>{ACTION_LABELS[entry.action]}</strong>
            {entry.listingId ? ` listing ${entry.listingId}` : ''}
            {entry.ratingId ? ` ${entry.ratingId}` : ''}
            {entry.conversationId ? ` ${entry.conversationId}` : ''}
            {entry.userId ? ` user ${entry.userId}` : ''}
            {entry.reason ? `: ${entry.reason}` : ''}
            {entry.action === 'remove' && entry.listingId && isLatestOfListing ? (
              <RestoreButton listingId={entry.listingId} />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
