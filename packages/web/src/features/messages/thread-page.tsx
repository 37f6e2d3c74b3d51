import { MeetupPanel } from '../../components/meetup-panel';
import { StudentSummary } from '../../components/student-summary';
import { displayName, formatPrice, isPending } from '@campus-books/common/display';
import { imageIdFromUrl } from '@campus-books/common/images';
import { useEffect } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { ListingImage } from '../../components/listing-image';
import { NotFound } from '../../components/not-found';
import { PageTitle } from '../../components/page-title';
import { Badge } from '../../components/ui/badge';
import { RequestError } from '../../components/ui/request-error';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { draftOf } from '../../lib/message-draft';
import { useConversation, useMarkRead, useSendMessage } from './api/conversation-api';
import { BlockStudent, ReadOnlyNotice } from './block-student';
import { Composer } from './composer';
import { DealPanel } from './deal-panel';
import { EventList } from './event-list';
import { ReportConversation } from './report-conversation';
import { useConversationStream } from './use-conversation-stream';

/** /messages/{id}: one conversation, live, with its composer and the deal. */
export default function ThreadPage() {
  const { conversationId = '' } = useParams();
  const conversation = useConversation(conversationId);
  const send = useSendMessage(conversationId);
  const markRead = useMarkRead(conversationId);
  const draft = draftOf(useLocation().state);
  useConversationStream();

  const data = conversation.data;
  const lastEventId = data?.lastEventId;
  const unread = data?.unread;
  const { mutate: markAsRead } = markRead;
  // What is on screen is read: the mark moves to the last event (never back: sending it twice is harmless).
  useEffect(() => {
    if (unread && lastEventId !== undefined && document.visibilityState !== 'hidden') {
      markAsRead(lastEventId);
    }
  }, [unread, lastEventId, markAsRead]);

  if (conversation.isPending) return <Loading />;
  if (conversation.error instanceof ApiError && conversation.error.status === 404)
    return <NotFound />;
  if (!data) return <RequestError error={conversation.error} />;

  const name = displayName(data.listing.name);
  const other = data.other.username ?? 'A deleted account';
  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col gap-5 py-2">
      <PageTitle title={`${other} · ${name}`} />
      <header className="flex items-start gap-3">
        {data.listing.cover ? (
          <ListingImage
            url={data.listing.cover}
            sizes="64px"
            alt=""
            className="size-16 shrink-0 rounded-lg object-cover"
          />
        ) : null}
        <div className="min-w-0">
          <h1 className="text-xl font-bold wrap-anywhere text-slate-900 sm:text-2xl">
            {data.listing.id && data.listing.available ? (
              <Link to={paths.listing(data.listing.id)} className="hover:underline">
                {name}
              </Link>
            ) : (
              name
            )}
          </h1>
          <p className="flex flex-wrap items-center gap-2 text-slate-800">
            {data.listing.price !== null ? (
              <span className="font-bold text-brand-900">{formatPrice(data.listing.price)}</span>
            ) : null}
            {data.other.id ? null : (
              <span>
                {data.role === 'buyer' ? 'Seller' : 'Buyer'}: {other}
              </span>
            )}
            {isPending({ ...data.listing, status: data.listing.status ?? '' }) ? (
              <Badge color="yellow">Pending</Badge>
            ) : null}
            {data.listing.status === 'sold' ? <Badge color="grey">Sold</Badge> : null}
            {data.listing.available ? null : <Badge color="grey">No longer available</Badge>}
          </p>
          {data.other.id ? (
            <StudentSummary
              userId={data.other.id}
              label={data.role === 'buyer' ? 'Seller' : 'Buyer'}
            />
          ) : null}
        </div>
      </header>
      <EventList conversation={data} />
      {data.readOnly ? (
        <ReadOnlyNotice conversation={data} />
      ) : (
        <>
          {/*
           * On a phone the message box stays at the bottom of the screen (above the keyboard: the
           * viewport's interactive-widget) while the history scrolls behind it.
           */}
          <div
            data-testid="composer-bar"
            className="sticky bottom-0 z-10 border-t border-slate-200 bg-slate-50 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] sm:static sm:border-0 sm:bg-transparent sm:p-0"
          >
            <Composer
              rows={2}
              initialText={draft}
              isPending={send.isPending}
              error={send.error}
              withPhotos
              onSend={(text, key, done, photoUrls) =>
                send.mutate(
                  { text, key, photos: photoUrls.map((url) => imageIdFromUrl(url) ?? url) },
                  { onSuccess: done },
                )
              }
            />
          </div>
          <DealPanel conversation={data} />
          <MeetupPanel conversationId={data.id} />
        </>
      )}
      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-3">
        <Link to={paths.messages()} className="link inline-flex min-h-11 items-center">
          All messages
        </Link>
        {data.readOnly ? null : <BlockStudent conversation={data} />}
        <ReportConversation conversationId={data.id} />
      </div>
    </section>
  );
}
