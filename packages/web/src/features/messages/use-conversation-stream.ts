import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { queryKeys } from '../../lib/query-keys';

const STREAM_URL = '/api/conversations/events';

/**
 * Follows the student's conversations live while the page that calls it is shown: one EventSource
 * to `GET /api/conversations/events`. Each event (a message, an offer, a hold, a listing's change)
 * refreshes the conversation queries, so the thread, the inbox and the header's count follow. The
 * stream is closed on every way out: the page unmounting (any navigation) and the tab being hidden
 * (a phone showing another app); it opens again when the tab is shown, resuming after the last
 * stream id it received (`?after=`), and refreshes once it is open, which covers what happened
 * while it was closed.
 */
export function useConversationStream(): void {
  const queryClient = useQueryClient();

  useEffect(() => {
    let source: EventSource | null = null;
    let lastStreamId: string | null = null;
    const refresh = () =>
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.all });

    const open = () => {
      if (source) return;
      const url = lastStreamId
        ? `${STREAM_URL}?after=${encodeURIComponent(lastStreamId)}`
        : STREAM_URL;
      const stream = new EventSource(url);
      stream.addEventListener('open', refresh);
      stream.addEventListener('conversation', (event) => {
        if (event.lastEventId) lastStreamId = event.lastEventId;
        refresh();
      });
      // The other side read a conversation ("Seen"): not resumable, the refresh reads the mark.
      stream.addEventListener('seen', refresh);
      source = stream;
    };
    const close = () => {
      source?.close();
      source = null;
    };
    const onVisibility = () => (document.visibilityState === 'hidden' ? close() : open());

    if (document.visibilityState !== 'hidden') open();
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', close);
    window.addEventListener('pageshow', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', close);
      window.removeEventListener('pageshow', onVisibility);
      close();
    };
  }, [queryClient]);
}
