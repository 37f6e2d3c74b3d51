import { displayName } from '@campus-books/common/display';
import { Link, useSearchParams } from 'react-router';
import { useConversations } from '../../api/conversations';
import { PageTitle } from '../../components/page-title';
import { RequestError } from '../../components/ui/request-error';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useNow } from '../../lib/render-clock';
import { InboxLine } from './inbox-line';
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
      <h1 className="text-2xl font-bold wrap-anywhere text-slate-900 sm:text-3xl">{title}</h1>
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
          {conversations.data.map((conversation) => (
            <li key={conversation.id}>
              <InboxLine conversation={conversation} now={now} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
