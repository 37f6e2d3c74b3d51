import type { DraftFields, DraftPublishAnswer } from '@campus-books/common/shelf.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { invalidateListings } from '../../api/listings/invalidate-listings';
import { deleteDraft, fetchDrafts, publishDrafts, putDraft } from './api/drafts';
import { mergeShelf, readShelf, writeShelf, type ShelfDraft } from './shelf-store';

/** How long typing waits before the draft goes to the server. */
const SAVE_DELAY_MS = 700;

/**
 * The seller's shelf of drafts, kept on this device at every change and sent to the server shortly
 * after (and again when the connection is back), so a closed tab or a lost connection loses nothing.
 */
export function useShelf(userId: string) {
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<ShelfDraft[]>(() => readShelf(userId));
  const [isLoaded, setIsLoaded] = useState(false);
  const latest = useRef(drafts);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const commit = useCallback(
    (next: ShelfDraft[]) => {
      latest.current = next;
      writeShelf(userId, next);
      setDrafts(next);
    },
    [userId],
  );

  /** Sends one draft's current version; marks it synced if nothing changed meanwhile. */
  const send = useCallback(
    async (id: string) => {
      const draft = latest.current.find((d) => d.id === id);
      if (!draft || draft.synced) return;
      try {
        await putDraft(id, draft.fields, draft.imageUrls);
      } catch {
        return; // Offline or refused: the device keeps it, the next change or reconnection retries.
      }
      if (latest.current.find((d) => d.id === id) === draft) {
        commit(latest.current.map((d) => (d === draft ? { ...d, synced: true } : d)));
      }
    },
    [commit],
  );

  const sendAll = useCallback(async () => {
    await Promise.all(latest.current.filter((d) => !d.synced).map((d) => send(d.id)));
  }, [send]);

  useEffect(() => {
    const controller = new AbortController();
    fetchDrafts(controller.signal)
      .then((server) => {
        commit(mergeShelf(latest.current, server));
        setIsLoaded(true);
        void sendAll();
      })
      .catch(() => setIsLoaded(true));
    const onOnline = () => void sendAll();
    window.addEventListener('online', onOnline);
    return () => {
      controller.abort();
      window.removeEventListener('online', onOnline);
    };
  }, [commit, sendAll]);

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);

  /** Keeps a new version of a draft now, and sends it once the seller pauses. */
  const update = useCallback(
    (id: string, change: { fields?: DraftFields; imageUrls?: string[] }) => {
      const existing = latest.current.find((d) => d.id === id);
      const next: ShelfDraft = {
        id,
        fields: change.fields ?? existing?.fields ?? {},
        imageUrls: change.imageUrls ?? existing?.imageUrls ?? [],
        synced: false,
      };
      commit(
        existing ? latest.current.map((d) => (d.id === id ? next : d)) : [...latest.current, next],
      );
      clearTimeout(timers.current.get(id));
      timers.current.set(
        id,
        setTimeout(() => void send(id), SAVE_DELAY_MS),
      );
    },
    [commit, send],
  );

  const flush = useCallback(
    async (id: string) => {
      clearTimeout(timers.current.get(id));
      await send(id);
    },
    [send],
  );

  const remove = useCallback(
    async (id: string) => {
      clearTimeout(timers.current.get(id));
      commit(latest.current.filter((d) => d.id !== id));
      await deleteDraft(id).catch(() => {});
    },
    [commit],
  );

  /** Sends what is not sent yet, then publishes every draft; the failed ones stay with the reason. */
  const publishAll = useCallback(async (): Promise<DraftPublishAnswer> => {
    await sendAll();
    const ids = latest.current.map((d) => d.id);
    const report = await publishDrafts(ids);
    const done = new Set(
      report.results.filter((r) => r.status === 'published').map((r) => r.draftId),
    );
    const problems = new Map(
      report.results.flatMap((r) => (r.status === 'failed' ? [[r.draftId, r.message]] : [])),
    );
    commit(
      latest.current
        .filter((d) => !done.has(d.id))
        .map((d) => ({ ...d, problem: problems.get(d.id) })),
    );
    if (done.size > 0) void invalidateListings(queryClient);
    return report;
  }, [commit, queryClient, sendAll]);

  return { drafts, isLoaded, update, flush, remove, publishAll };
}
