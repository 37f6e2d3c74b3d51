import { REPORT_REASON_LABELS } from '@campus-books/common/constants';
import { displayName } from '@campus-books/common/display';
import type {
  ModerationLogEntry,
  ModerationQueueItem,
} from '@campus-books/common/moderation.schemas';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { RequestError } from '../../components/ui/request-error';
import { paths } from '../../config/paths';
import { useModerationAction, type ModerationAction } from './api/moderation';

export function when(iso: string): string {
  return new Date(iso).toLocaleString('en-US');
}

/**
 * One reported listing: whether its seller deleted it or asked for a review, each report and
 * whether it counted toward the automatic hide, the seller's deletes from the audit log, and the
 * moderators' actions.
 */
export function QueueItem({
  item,
  sellerDeletes,
}: {
  item: ModerationQueueItem;
  /** The audit log's `seller-delete` lines of this listing. */
  sellerDeletes: ModerationLogEntry[];
}) {
  const action = useModerationAction();
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const run = (next: ModerationAction) => action.mutate(next);
  const name = displayName(item.listing.name);
  const counted = item.reports.filter((report) => report.countsTowardHide).length;
  return (
    <li className="rounded-xl border border-slate-200 p-4">
      <h2 className="text-lg font-bold wrap-anywhere">
        <Link to={paths.listing(item.listing._id)}>{name}</Link>{' '}
        <span className="text-sm font-normal text-slate-700">({item.listing.status})</span>
      </h2>
      {item.reviewRequestedAt || item.deletedBySellerAt ? (
        <div className="mt-1 flex flex-wrap gap-2">
          {item.reviewRequestedAt ? (
            <Badge color="yellow">
              <span>
                Review requested{' '}
                <time dateTime={item.reviewRequestedAt}>{when(item.reviewRequestedAt)}</time>
              </span>
            </Badge>
          ) : null}
          {item.deletedBySellerAt ? (
            <Badge color="grey">
              <span>
                Deleted by the seller{' '}
                <time dateTime={item.deletedBySellerAt}>{when(item.deletedBySellerAt)}</time>
              </span>
            </Badge>
          ) : null}
        </div>
      ) : null}
      <p className="mt-1 text-sm text-slate-700">
        {item.seller
          ? `Seller: ${item.seller.username} (${item.seller.email})${item.seller.suspended ? ' · suspended' : ''}`
          : 'Seller: a deleted account'}
      </p>
      <p className="mt-2 text-sm text-slate-700">
        {item.reports.length} {item.reports.length === 1 ? 'report' : 'reports'}, {counted} counting
        toward the automatic hide
      </p>
      <ul className="mt-1 list-disc pl-5 text-sm">
        {item.reports.map((report, index) => (
          <li key={index}>
            <strong>{REPORT_REASON_LABELS[report.reason]}</strong>
            {report.note ? `: ${report.note}` : ''}{' '}
            <span className="text-slate-700">
              (
              {report.countsTowardHide
                ? 'counts toward the hide'
                : 'does not count toward the hide'}
              )
            </span>
          </li>
        ))}
      </ul>
      {sellerDeletes.length > 0 ? (
        <ul className="mt-2 text-sm text-slate-800" aria-label={`Seller's deletes of ${name}`}>
          {sellerDeletes.map((entry) => (
            <li key={entry._id}>
              <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time>:{' '}
              {entry.reason ?? 'Deleted by the seller'} ({entry.moderatorEmail})
            </li>
          ))}
        </ul>
      ) : null}
      <label htmlFor={reasonId} className="mt-3 block text-sm font-semibold text-slate-800">
        Reason (mailed to the seller on remove or suspend)
      </label>
      <textarea
        id={reasonId}
        rows={2}
        maxLength={1000}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        className="mt-1 w-full rounded-lg border border-slate-500 p-2"
      />
      <RequestError error={action.error} className="mt-2" />
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          variant="secondary"
          disabled={action.isPending}
          onClick={() => run({ kind: 'dismiss', listingId: item.listing._id })}
        >
          Dismiss<span className="sr-only"> reports on {name}</span>
        </Button>
        <Button
          variant="danger"
          disabled={action.isPending}
          onClick={() => run({ kind: 'remove', listingId: item.listing._id, reason })}
        >
          Remove<span className="sr-only"> {name}</span>
        </Button>
        {item.seller ? (
          <SuspendButton
            seller={item.seller}
            name={name}
            reason={reason}
            run={run}
            busy={action.isPending}
          />
        ) : null}
      </div>
    </li>
  );
}

function SuspendButton({
  seller,
  name,
  reason,
  run,
  busy,
}: {
  seller: NonNullable<ModerationQueueItem['seller']>;
  name: string;
  reason: string;
  run(action: ModerationAction): void;
  busy: boolean;
}) {
  return seller.suspended ? (
    <Button
      variant="secondary"
      disabled={busy}
      onClick={() => run({ kind: 'unsuspend', userId: seller._id })}
    >
      Unsuspend seller<span className="sr-only"> of {name}</span>
    </Button>
  ) : (
    <Button
      variant="danger"
      disabled={busy}
      onClick={() => run({ kind: 'suspend', userId: seller._id, reason })}
    >
      Suspend seller<span className="sr-only"> of {name}</span>
    </Button>
  );
}
