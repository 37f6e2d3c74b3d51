import { ReportedConversations } from './reported-conversations';
import { ReportedRatings } from './reported-ratings';
import { AuditLog } from './audit-log';
import { QueueItem } from './queue-item';
import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';
import { useModerationLog, useModerationQueue } from './api/moderation';
import { RequestError } from '../../components/ui/request-error';

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
        <p className="mt-1">
          <Link to={paths.statistics} className="inline-flex min-h-11 items-center">
            Campus statistics
          </Link>
        </p>
        {queue.isPending ? <Loading /> : null}
        <RequestError error={queue.error} />
        {queue.data && queue.data.length === 0 ? (
          <p className="mt-2 text-slate-700">Nothing to look at: no open reports.</p>
        ) : null}
        <ul className="mt-4 space-y-4">
          {queue.data?.map((item) => (
            <QueueItem
              key={item.listing._id}
              item={item}
              sellerDeletes={(log.data ?? []).filter(
                (entry) => entry.action === 'seller-delete' && entry.listingId === item.listing._id,
              )}
            />
          ))}
        </ul>
      </section>
      <ReportedConversations />
      <ReportedRatings />
      <section aria-labelledby="log-title">
        <h2 id="log-title" className="text-xl font-bold text-slate-900">
          Audit log
        </h2>
        {log.isPending ? <Loading /> : null}
        <RequestError error={log.error} />
        {log.data ? <AuditLog entries={log.data} /> : null}
      </section>
    </div>
  );
}
