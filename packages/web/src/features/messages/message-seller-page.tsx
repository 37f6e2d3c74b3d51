import { displayName, formatPrice } from '@campus-books/common/display';
import { imageIdFromUrl } from '@campus-books/common/images';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { useConversations } from '../../api/conversations';
import { NotFound } from '../../components/not-found';
import { PageTitle } from '../../components/page-title';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { ApiError, apiCall } from '../../lib/api-client';
import { draftOf, type MessageDraftState } from '../../lib/message-draft';
import { queryKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { useStartConversation } from './api/conversation-api';
import { Composer } from './composer';

/**
 * /messages/new/{listingId}: the buyer's first message about a listing. A buyer who already wrote
 * about it goes straight to that conversation (the server would add to it anyway), with the first
 * message they tapped, if any.
 */
export default function MessageSellerPage() {
  const { listingId = '' } = useParams();
  const navigate = useNavigate();
  // A first message tapped on the listing's page: in the box, ready to send or edit.
  const draft = draftOf(useLocation().state);
  const existing = useConversations(listingId);
  // The listing page's own query (same key): usually in the cache already.
  const listing = useQuery({
    queryKey: queryKeys.listing.one(listingId),
    queryFn: ({ signal }) =>
      apiCall('GET /api/listing/get/:id', { params: { id: listingId }, signal }),
  });
  const start = useStartConversation();
  const { user } = useSession();

  if (existing.isPending || listing.isPending) return <Loading />;
  const mine = existing.data?.find((conversation) => conversation.role === 'buyer');
  if (mine) {
    const state: MessageDraftState | undefined = draft === undefined ? undefined : { draft };
    return <Navigate to={paths.conversation(mine.id)} replace state={state} />;
  }
  if (listing.error instanceof ApiError && listing.error.status === 404) return <NotFound />;

  const name = listing.data ? displayName(listing.data.name) : 'this book';
  if (listing.data && listing.data.userRef === user?._id) {
    return (
      <section className="mx-auto w-full max-w-xl space-y-4 py-2">
        <PageTitle title={name} />
        <h1 className="text-2xl font-bold wrap-anywhere text-slate-900">Your own listing</h1>
        <p className="text-slate-800">
          Buyers write to you here:{' '}
          <Link to={paths.messages(listingId)} className="link">
            the messages about {name}
          </Link>
          .
        </p>
      </section>
    );
  }
  return (
    <section className="mx-auto w-full max-w-xl space-y-4 py-2">
      <PageTitle title={`Message the seller of ${name}`} />
      <h1 className="text-2xl font-bold wrap-anywhere text-slate-900">Message the seller</h1>
      <p className="text-slate-800">
        About{' '}
        <Link to={paths.listing(listingId)} className="link">
          {name}
        </Link>
        {listing.data ? ` (${formatPrice(listing.data.regularPrice)})` : ''}. Say when and where on
        campus you could meet, or send a photo; you can make an offer in the conversation.
      </p>
      <Composer
        label="Your message"
        initialText={draft}
        isPending={start.isPending}
        error={start.error}
        withPhotos
        onSend={(text, key, _done, photoUrls) =>
          start.mutate(
            {
              listingId,
              text,
              key,
              ...(photoUrls.length > 0
                ? { photos: photoUrls.map((url) => imageIdFromUrl(url) ?? url) }
                : {}),
            },
            {
              onSuccess: (answer) =>
                void navigate(paths.conversation(answer.conversationId), { replace: true }),
            },
          )
        }
      />
    </section>
  );
}
