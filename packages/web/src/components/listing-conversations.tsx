import { Link } from 'react-router';
import { useConversations } from '../api/conversations';
import { paths } from '../config/paths';

/** The seller's conversations about one listing, on its page: who wrote, and what is unread. */
export function ListingConversations({ listingId }: { listingId: string }) {
  const conversations = useConversations(listingId);
  const list = conversations.data ?? [];
  return (
    <section aria-labelledby="listing-conversations" className="space-y-2">
      <h2 id="listing-conversations" className="font-bold text-slate-900">
        Messages about this listing
      </h2>
      {conversations.isPending ? null : list.length === 0 ? (
        <p className="text-sm text-slate-700">No student has written about it yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {list.map((conversation) => (
            <li key={conversation.id}>
              <Link
                to={paths.conversation(conversation.id)}
                className="flex min-h-11 items-center justify-between gap-3 px-3 py-2 no-underline hover:bg-slate-50"
              >
                <span className="font-semibold text-slate-900">
                  {conversation.other.username ?? 'A deleted account'}
                </span>
                {conversation.unread ? (
                  <span className="text-sm font-semibold text-brand-800">Unread</span>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
