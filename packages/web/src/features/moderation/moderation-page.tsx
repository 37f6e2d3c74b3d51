import { REPORT_REASON_LABELS } from '@campus-books/common/constants';
import { displayName } from '@campus-books/common/display';
import type { ModerationQueueItem } from '@campus-books/common/moderation.schemas';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Button } from '../../components/ui/button';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';
import {
  useModerationAction,
  useModerationLog,
  useModerationQueue,
  type ModerationAction,
} from './api/moderation';
import { RequestError } from '../../components/ui/request-error';

function QueueItem({ item }: { item: ModerationQueueItem }) {
  const action = useModerationAction();
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const run = (next: ModerationAction) => action.mutate(next);
  const name = displayName(item.listing.name);
  return (
    <li className="rounded-xl border border-slate-200 p-4">
      <h2 className="text-lg font-bold break-words">
        <Link to={paths.listing(item.listing._id)}>{name}</Link>{' '}
        <span className="text-sm font-normal text-slate-700">({item.listing.status})</span>
      </h2>
      <p className="text-sm text-slate-700">
        Seller: {item.seller.username} ({item.seller.email})
        {item.seller.suspended ? ' · suspended' : ''}
      </p>
      <ul className="mt-2 list-disc pl-5 text-sm">
        {item.reports.map((report, index) => (
          <li key={index}>
            <strong>{REPORT_REASON_LABELS[report.reason]}</strong>
            {report.note ? `: ${report.note}` : ''}
          </li>
        ))}
      </ul>
      <label htmlFor={reasonId} className="mt-3 block text-sm font-semibold text-slate-800">
        Reason (mailed to the seller on remove or suspend)
      </label>
      <textarea
        id={reasonId}
        rows={2}
        maxLength={1000}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        className="mt-1 w-full rounded-lg border border-slate-400 p-2"
      />
      <RequestError error={action.error} className="mt-2" />
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          className="min-h-11"
          variant="secondary"
          disabled={action.isPending}
          onClick={() => run({ kind: 'dismiss', listingId: item.listing._id })}
        >
          Dismiss<span className="sr-only"> reports on {name}</span>
        </Button>
        <Button
          className="min-h-11"
          variant="danger"
          disabled={action.isPending}
          onClick={() => run({ kind: 'remove', listingId: item.listing._id, reason })}
        >
          Remove<span className="sr-only"> {name}</span>
        </Button>
        {item.seller.suspended ? (
          <Button
            className="min-h-11"
            variant="secondary"
            disabled={action.isPending}
            onClick={() => run({ kind: 'unsuspend', userId: item.seller._id })}
          >
            Unsuspend seller<span className="sr-only"> of {name}</span>
          </Button>
        ) : (
          <Button
            className="min-h-11"
            variant="danger"
            disabled={action.isPending}
            onClick={() => run({ kind: 'suspend', userId: item.seller._id, reason })}
          >
            Suspend seller<span className="sr-only"> of {name}</span>
          </Button>
        )}
      </div>
    </li>
  );
}

/** /moderation: the reported listings and the audit log (the API answers 403 to non-moderators). */
export default function ModerationPage() {
  const { user } = useSession();
  const queue = useModerationQueue();
  const log = useModerationLog();

  if (!user?.isModerator) {
    return (
      <div className="py-12 text-center">
        <PageTitle title="Moderation" />
        <h1 className="text-2xl font-bold text-slate-900">Moderation</h1>
        <p className="mt-2 text-slate-700">Only the campus moderators can open this page.</p>
      </div>
    );
  }

  return (
    <div className="space-y-10">
      <PageTitle title="Moderation" />
      <section aria-labelledby="queue-title">
        <h1 id="queue-title" className="text-2xl font-bold text-slate-900">
          Reported listings
        </h1>
        {queue.isPending ? <Loading /> : null}
        <RequestError error={queue.error} />
        {queue.data && queue.data.length === 0 ? (
          <p className="mt-2 text-slate-700">Nothing to look at: no open reports.</p>
        ) : null}
        <ul className="mt-4 space-y-4">
          {queue.data?.map((item) => (
            <QueueItem key={item.listing._id} item={item} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="log-title">
        <h2 id="log-title" className="text-xl font-bold text-slate-900">
          Audit log
        </h2>
        {log.isPending ? <Loading /> : null}
        <ul className="mt-3 space-y-1 text-sm">
          {log.data?.map((entry) => (
            <li key={entry._id}>
              {new Date(entry.createdAt).toLocaleString('en-US')}: {entry.moderatorEmail}{' '}
              <strong>{entry.action}</strong> {entry.listingId ? `listing ${entry.listingId}` : ''}
              {entry.userId ? ` user ${entry.userId}` : ''}
              {entry.reason ? `: ${entry.reason}` : ''}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
