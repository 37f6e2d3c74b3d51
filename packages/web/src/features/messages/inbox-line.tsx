import type { ConversationSummary } from '@campus-books/common/conversation.schemas';
import { displayName, formatPrice, isPending, type BadgeColor } from '@campus-books/common/display';
import { Link } from 'react-router';
import { ListingImage } from '../../components/listing-image';
import { Badge } from '../../components/ui/badge';
import { paths } from '../../config/paths';
import { timeAgo } from '@campus-books/common/relative-time';
import { dollars, latestLine } from './event-line';

/** "Thu 3:00 PM": when a hold ends, in the reader's clock. */
const holdEnd = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { weekday: 'short', hour: 'numeric', minute: '2-digit' });

/** Where the deal stands, as the inbox line's badge: sold, on hold until when, an offer waiting. */
export function dealState(
  conversation: ConversationSummary,
): { label: string; color: BadgeColor } | null {
  const { listing, openOffer, role } = conversation;
  if (!listing.available) return { label: 'No longer available', color: 'grey' };
  if (listing.status === 'sold') return { label: 'Sold', color: 'grey' };
  if (listing.pendingUntil && isPending({ ...listing, status: listing.status ?? '' })) {
    return { label: `Pending until ${holdEnd(listing.pendingUntil)}`, color: 'yellow' };
  }
  if (openOffer) {
    return openOffer.from === role
      ? { label: `Your offer of ${dollars(openOffer.amount)} is waiting`, color: 'blue' }
      : { label: `Offer of ${dollars(openOffer.amount)} to answer`, color: 'green' };
  }
  return null;
}

/** One conversation at a glance: the book, the latest word, the deal, and whether it is unread. */
export function InboxLine({
  conversation,
  now,
}: {
  conversation: ConversationSummary;
  now: number;
}) {
  const name = displayName(conversation.listing.name);
  const other = conversation.other.username ?? 'A deleted account';
  const latest = latestLine(conversation);
  const deal = dealState(conversation);
  return (
    <Link
      to={paths.conversation(conversation.id)}
      data-testid="inbox-line"
      className="flex min-h-11 items-start gap-3 py-3 no-underline hover:bg-slate-50"
    >
      {conversation.listing.cover ? (
        <ListingImage
          url={conversation.listing.cover}
          sizes="56px"
          alt=""
          className="size-14 shrink-0 rounded-lg object-cover"
        />
      ) : (
        <span aria-hidden="true" className="size-14 shrink-0 rounded-lg bg-slate-200" />
      )}
      <span className="min-w-0 flex-1">
        <span
          className={`block truncate text-slate-900 ${conversation.unread ? 'font-bold' : 'font-semibold'}`}
        >
          {name}
        </span>
        {latest ? (
          <span
            data-testid="inbox-latest"
            className={`block truncate text-sm ${conversation.unread ? 'font-semibold text-slate-900' : 'text-slate-700'}`}
          >
            {latest}
          </span>
        ) : null}
        <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700">
          {conversation.unread ? (
            <span className="flex items-center gap-1 font-semibold text-brand-800">
              <span aria-hidden="true" className="size-2.5 shrink-0 rounded-full bg-brand-700" />
              Unread
            </span>
          ) : null}
          {deal ? (
            <span data-testid="inbox-deal">
              <Badge color={deal.color}>{deal.label}</Badge>
            </span>
          ) : null}
          {conversation.listing.price !== null ? (
            <span>{formatPrice(conversation.listing.price)}</span>
          ) : null}
          <span>
            {conversation.role === 'buyer' ? 'Seller' : 'Buyer'}: {other}
          </span>
          <time dateTime={conversation.lastEventAt} className="text-xs text-slate-600">
            {timeAgo(conversation.lastEventAt, now)}
          </time>
        </span>
      </span>
    </Link>
  );
}
