import { formatPrice } from '@campus-books/common/display';
import { REPORT_REASON_LABELS } from '@campus-books/common/constants';
import {
  type ReportedConversation,
  type ReportedConversationThread,
} from '@campus-books/common/moderation.schemas';
import { useId, useState } from 'react';
import { MessagePhotos } from '../../components/message-photos';
import { Button } from '../../components/ui/button';
import { RequestError } from '../../components/ui/request-error';
import { Loading } from '../../components/ui/spinner';
import {
  useConversationAction,
  useReportedConversations,
  useReportedConversationThread,
} from './api/reported-conversations';

type ThreadEvent = ReportedConversationThread['events'][number];

function nameOf(item: ReportedConversation, side: 'buyer' | 'seller' | null): string {
  if (side === null) return 'The campus';
  return item[side].username ?? 'A deleted account';
}

function eventText(item: ReportedConversation, event: ThreadEvent): string {
  const who = event.author ? nameOf(item, event.author) : 'A deleted account';
  switch (event.kind) {
    case 'message':
      return `${who}: ${event.body ?? ''}`;
    case 'offer':
      return `${who} offered ${formatPrice(event.amount ?? 0)}`;
    case 'offer_accepted':
      return `${who} accepted the offer`;
    case 'offer_declined':
      return `${who} declined the offer`;
    default:
      return `Listing: ${event.kind.replace('_', ' ')}`;
  }
}

/** The messages of one reported conversation, read when the moderator asks (the read is logged). */
function Thread({ item }: { item: ReportedConversation }) {
  const [asked, setAsked] = useState(false);
  const thread = useReportedConversationThread(item.id, asked);
  if (!asked) {
    return (
      <Button variant="secondary" className="min-h-11" onClick={() => setAsked(true)}>
        Read the messages<span className="sr-only"> about {item.listing.name}</span> (logged)
      </Button>
    );
  }
  if (thread.isPending) return <Loading />;
  if (!thread.data) return <RequestError error={thread.error} />;
  return (
    <ol
      className="max-h-96 space-y-2 overflow-y-auto rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm"
      aria-label={`Messages about ${item.listing.name}`}
    >
      {thread.data.events.map((event) => (
        <li key={event.id} className="wrap-anywhere whitespace-pre-wrap">
          <span className="text-slate-600">
            {new Date(event.createdAt).toLocaleString('en-US')}
          </span>{' '}
          {eventText(item, event)}
          <MessagePhotos
            photos={event.photos}
            from={event.author ? nameOf(item, event.author) : 'A deleted account'}
          />
          {event.hiddenFromOthers ? (
            <span className="text-slate-600"> (hidden: its author is suspended)</span>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

function ReportedItem({ item }: { item: ReportedConversation }) {
  const action = useConversationAction();
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const reportedSides = new Set(item.reports.map((r) => r.by));
  // The student to suspend is the one reported: the other side of each report.
  const targets = (['buyer', 'seller'] as const).filter(
    (side) =>
      item[side].id !== null &&
      !item[side].suspended &&
      reportedSides.has(side === 'buyer' ? 'seller' : 'buyer'),
  );
  return (
    <li className="space-y-3 rounded-xl border border-slate-200 p-4">
      <h3 className="text-lg font-bold wrap-anywhere">“{item.listing.name}”</h3>
      <p className="text-sm text-slate-700">
        Seller: {nameOf(item, 'seller')}
        {item.seller.suspended ? ' (suspended)' : ''} · Buyer: {nameOf(item, 'buyer')}
        {item.buyer.suspended ? ' (suspended)' : ''}
      </p>
      <ul className="list-disc pl-5 text-sm">
        {item.reports.map((report, index) => (
          <li key={index}>
            Reported by the {report.by ?? 'deleted account'}:{' '}
            <strong>{REPORT_REASON_LABELS[report.reason]}</strong>
            {report.note ? `: ${report.note}` : ''}
          </li>
        ))}
      </ul>
      <Thread item={item} />
      <label htmlFor={reasonId} className="block text-sm font-semibold text-slate-800">
        Reason (kept in the audit log on suspend)
      </label>
      <textarea
        id={reasonId}
        rows={2}
        maxLength={1000}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        className="w-full rounded-lg border border-slate-500 p-2"
      />
      <RequestError error={action.error} />
      <div className="flex flex-wrap gap-2">
        <Button
          className="min-h-11"
          variant="secondary"
          disabled={action.isPending}
          onClick={() => action.mutate({ kind: 'dismiss', conversationId: item.id })}
        >
          Dismiss
          <span className="sr-only"> reports on the conversation about {item.listing.name}</span>
        </Button>
        {targets.map((side) => (
          <Button
            key={side}
            className="min-h-11"
            variant="danger"
            disabled={action.isPending}
            onClick={() => action.mutate({ kind: 'suspend', userId: item[side].id!, reason })}
          >
            Suspend {nameOf(item, side)}
          </Button>
        ))}
      </div>
    </li>
  );
}

/** Conversations students reported: read the messages (logged), dismiss, or suspend the student. */
export function ReportedConversations() {
  const reported = useReportedConversations();
  return (
    <section aria-labelledby="reported-conversations-title">
      <h2 id="reported-conversations-title" className="text-xl font-bold text-slate-900">
        Reported conversations
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Messages are private: each conversation opens only while it is reported, and every read goes
        to the audit log.
      </p>
      {reported.isPending ? <Loading /> : null}
      <RequestError error={reported.error} />
      {reported.data && reported.data.conversations.length === 0 ? (
        <p className="mt-2 text-slate-700">No reported conversations.</p>
      ) : null}
      <ul className="mt-3 space-y-3">
        {reported.data?.conversations.map((item) => (
          <ReportedItem key={item.id} item={item} />
        ))}
      </ul>
    </section>
  );
}
