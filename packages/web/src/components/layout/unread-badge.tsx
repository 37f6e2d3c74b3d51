import { useUnreadCount } from '../../api/unread-count';

/**
 * The unread conversations beside "Messages" (a count, hidden at 0, "99+" above 99, spoken as part
 * of the link) or on the phone's menu button (a dot, the count for screen readers). Loaded after
 * the first paint, for verified students only: a visitor's first load does not carry it.
 */
export default function UnreadBadge({ kind }: { kind: 'count' | 'dot' }) {
  const count = useUnreadCount(true).data ?? 0;
  if (count <= 0) return null;
  return (
    <>
      <span className="sr-only">, {count} unread</span>
      {kind === 'dot' ? (
        <span
          aria-hidden="true"
          className="absolute top-1 right-1 size-2.5 rounded-full bg-red-700"
        />
      ) : (
        <span
          aria-hidden="true"
          className="ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-red-700 px-1.5 text-xs font-bold text-white"
        >
          {count > 99 ? '99+' : count}
        </span>
      )}
    </>
  );
}
