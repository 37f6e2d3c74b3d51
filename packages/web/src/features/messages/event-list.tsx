import type { Conversation } from '@campus-books/common/conversation.schemas';
import { useEffect, useRef } from 'react';
import { useNow } from '../../lib/render-clock';
import { timeAgo } from '@campus-books/common/relative-time';
import { actorName, systemLine } from './event-line';
import { MessagePhotos } from '../../components/message-photos';
import { OfferBooks } from './offer-books';

/**
 * The conversation's timeline: messages as bubbles (the reader's on the right), everything else as
 * a centred line. A message is plain text: a link in it is text to copy, never a live link, so a
 * message cannot lead anyone to another site with one tap.
 */
export function EventList({ conversation }: { conversation: Conversation }) {
  const now = useNow();
  const endRef = useRef<HTMLLIElement>(null);
  const count = conversation.events.length;
  const lastMine = conversation.events.findLast(
    (event) => event.kind === 'message' && event.author === conversation.role,
  );
  // "Seen": the other side has read up to the reader's last message (both show read receipts).
  const seen =
    lastMine !== undefined &&
    conversation.seenUpTo !== null &&
    conversation.seenUpTo >= lastMine.id;

  // The newest event stays in view as events arrive.
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [count]);

  if (count === 0) return <p className="text-slate-700">No messages yet.</p>;
  return (
    <div role="log" aria-label="Messages" aria-live="polite">
      <ol className="flex flex-col gap-3">
        {conversation.events.map((event, index) => {
          const time = (
            <time dateTime={event.createdAt} className="text-xs text-slate-600">
              {timeAgo(event.createdAt, now)}
            </time>
          );
          const last = index === count - 1 ? endRef : undefined;
          // Scrolled into view above the phone's message box, which stays at the bottom.
          if (event.kind !== 'message') {
            return (
              <li
                key={event.id}
                ref={last}
                data-kind={event.kind}
                className={`mx-auto max-w-md scroll-mb-44 sm:scroll-mb-0 bg-slate-100 px-4 py-1.5 text-center text-sm text-slate-800 ${
                  event.listings.length > 1 ? 'w-full rounded-2xl' : 'rounded-full'
                }`}
              >
                {systemLine(event, conversation)} · {time}
                {event.kind === 'offer' ? (
                  <OfferBooks
                    listings={event.listings}
                    label="Books of the offer"
                    className="mt-1"
                  />
                ) : null}
              </li>
            );
          }
          const mine = event.author === conversation.role;
          return (
            <li
              key={event.id}
              ref={last}
              data-kind="message"
              className={`flex max-w-[85%] scroll-mb-44 flex-col gap-1 sm:scroll-mb-0 ${mine ? 'items-end self-end' : 'items-start self-start'}`}
            >
              <span className="text-xs font-semibold text-slate-700">
                {actorName(event, conversation)}
              </span>
              {/* A message of photos only has no bubble of text, only its photos. */}
              {event.body ? (
                <p
                  className={`rounded-2xl px-4 py-2 wrap-anywhere whitespace-pre-wrap select-text ${
                    mine
                      ? 'bg-brand-700 text-white'
                      : 'bg-white text-slate-900 ring-1 ring-slate-300'
                  }`}
                >
                  {event.body}
                </p>
              ) : null}
              <MessagePhotos photos={event.photos} from={actorName(event, conversation)} />
              {time}
              {seen && event === lastMine ? (
                <span className="text-xs font-medium text-slate-700">Seen</span>
              ) : null}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
