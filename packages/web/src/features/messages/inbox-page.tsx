import { displayName, formatPrice } from '@campus-books/common/display';
import { Link, useSearchParams } from 'react-router';
import { useConversations } from '../../api/conversations';
import { ListingImage } from '../../components/listing-image';
import { PageTitle } from '../../components/page-title';
import { RequestError } from '../../components/ui/request-error';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useNow } from '../../lib/render-clock';
import { timeAgo } from '../../lib/relative-time';
import { useConversationStream } from './use-conversation-stream';

/** /messages: both roles' conversations, latest event first; one listing's with `?listingId=`. */
export default function InboxPage() {
  const [searchParams] = useSearchParams();
  const listingId = searchParams.get('listingId') ?? undefined;
  const conversations = useConversations(listingId);
  const now = useNow();
  useConversationStream();

  const first = conversations.data?.[0];
  const title =
    listingId && first ? `Messages about ${displayName(first.listing.name)}` : 'Messages';
  return (
    <section className="mx-auto w-full max-w-3xl py-2">
      <PageTitle title={title} />
      <h1 className="text-2xl font-bold break-words text-slate-900 sm:text-3xl">{title}</h1>
      {listingId ? (
        <Link to={paths.messages()} className="link inline-flex min-h-11 items-center">
          All messages
        </Link>
      ) : null}
      {conversations.isPending ? (
        <Loading />
      ) : conversations.isError ? (
        <RequestError error={conversations.error} className="mt-4" />
      ) : conversations.data.length === 0 ? (
        <p className="mt-6 text-slate-700">
          {listingId
            ? 'No student has written about this listing yet.'
            : 'No conversations yet. Write to a seller from a listing page: “Message seller”.'}
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 border-y border-slate-200">
          {conversations.data.map((conversation) => {
            const name = displayName(conversation.listing.name);
            const other = conversation.other.username ?? 'A deleted account';
            return (
              <li key={conversation.id}>
                <Link
                  to={paths.conversation(conversation.id)}
                  className="flex min-h-11 items-center gap-3 py-3 no-underline hover:bg-slate-50"
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
                    <span className="block text-sm text-slate-700">
                      {conversation.listing.available ? null : 'No longer available · '}
                      {conversation.listing.price !== null
                        ? `${formatPrice(conversation.listing.price)} · `
                        : ''}
                      {conversation.role === 'buyer' ? 'Seller' : 'Buyer'}: {other}
                    </span>
                    <time
                      dateTime={conversation.lastEventAt}
                      className="block text-xs text-slate-600"
                    >
                      {timeAgo(conversation.lastEventAt, now)}
                    </time>
                  </span>
                  {conversation.unread ? (
                    <span className="flex shrink-0 items-center gap-1 text-sm font-semibold text-brand-800">
                      <span aria-hidden="true" className="size-2.5 rounded-full bg-brand-700" />
                      Unread
                    </span>
                  ) : null}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
