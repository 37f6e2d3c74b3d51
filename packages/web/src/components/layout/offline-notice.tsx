import { useOfflineState } from '../../lib/offline-status';

const MESSAGES = {
  online: '',
  offline: "You're offline. Pages you haven't opened before can't load until you're back online.",
  'offline-copy': "You're offline — showing what you saw last.",
} as const;

/**
 * Under the header on every page. The live region is always there, so a change is announced; the
 * status itself exists only while there is something to say, so a page's own status message stays
 * the only one online.
 */
export function OfflineNotice() {
  const message = MESSAGES[useOfflineState()];
  return (
    <div
      aria-live="polite"
      aria-atomic="true"
      className={message ? 'border-b border-amber-300 bg-amber-50' : undefined}
    >
      {message && (
        <p role="status" className="mx-auto max-w-6xl px-4 py-2 text-sm font-medium text-amber-900">
          {message}
        </p>
      )}
    </div>
  );
}
