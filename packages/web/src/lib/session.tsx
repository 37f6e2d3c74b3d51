import type { CurrentUser } from '@campus-books/common/account.schemas';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { apiCall, onUnauthorizedAnswer } from './api-client';
import { API_CACHE, PAGE_CACHE } from './offline-cache';
import { SESSION_STORAGE_KEY, readStoredUser, writeStoredUser } from './session-storage';

export interface Session {
  user: CurrentUser | null;
  /** True until GET /api/auth/session has confirmed (or refused) the cached user. */
  isLoading: boolean;
  setUser(user: CurrentUser | null): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/** Runs `task` when the browser is idle (soon after, where it cannot tell); returns a cancel. */
function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: 2_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(task, 200);
  return () => window.clearTimeout(handle);
}

/**
 * GET /api/auth/session: the signed-in user, or null. Unlike /api/auth/me it answers 200 to a
 * signed-out visitor, so the check made on every page load never shows up as a failed request.
 */
export async function fetchSessionUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  const { user } = await apiCall('GET /api/auth/session', { signal });
  return user;
}

/**
 * Holds the signed-in user. The cached copy renders the header at once; the server's answer to
 * GET /api/auth/session then confirms it (a session set by the cookie alone is found too), and a
 * null answer signs the visitor out cleanly.
 */
export function SessionProvider({
  children,
  initialUser,
}: {
  children: ReactNode;
  /** The user the server rendered the page for (a server-rendered page): already confirmed. */
  initialUser?: CurrentUser | null;
}) {
  const queryClient = useQueryClient();
  const [user, setUserState] = useState<CurrentUser | null>(() =>
    initialUser === undefined ? readStoredUser() : initialUser,
  );
  const [isLoading, setIsLoading] = useState(initialUser === undefined);

  const setUser = useCallback((next: CurrentUser | null) => {
    writeStoredUser(next);
    setUserState(next);
  }, []);

  useEffect(() => {
    // The server read the session cookie for this page: keep this device's copy in step with it,
    // once the page is idle (a page's first use of storage loads it, ~10 ms of a phone's hydration).
    if (initialUser !== undefined) return whenIdle(() => writeStoredUser(initialUser));
    const controller = new AbortController();
    fetchSessionUser(controller.signal)
      .then((current) => setUser(current))
      .catch(() => {
        // A failure (offline, server restarting) keeps the cached user.
      })
      .finally(() => {
        if (!controller.signal.aborted) setIsLoading(false);
      });
    return () => controller.abort();
  }, [initialUser, setUser]);

  // A 401 while this page holds a user: the server may have ended the session (a sign-out made
  // elsewhere, an expiry). Ask it who is signed in and follow its answer (a wrong password on a
  // form that checks it answers 401 too: the session then stands).
  const userRef = useRef(user);
  useEffect(() => {
    userRef.current = user;
  }, [user]);
  useEffect(
    () =>
      onUnauthorizedAnswer(() => {
        if (!userRef.current) return;
        fetchSessionUser()
          .then((current) => {
            if (current === null) setUser(null);
          })
          .catch(() => {
            // Offline or a server restarting: the user this page holds stands.
          });
      }),
    [setUser],
  );

  // Another tab signed in or out: follow it.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === SESSION_STORAGE_KEY || event.key === null) setUserState(readStoredUser());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const signOut = useCallback(async () => {
    try {
      await apiCall('POST /api/auth/signout');
    } finally {
      setUser(null);
      queryClient.clear();
      // What this browser kept for offline use goes too (caches is absent on plain http).
      for (const cache of [API_CACHE, PAGE_CACHE]) {
        void globalThis.caches?.delete(cache).catch(() => undefined);
      }
    }
  }, [queryClient, setUser]);

  const value = useMemo<Session>(
    () => ({ user, isLoading, setUser, signOut }),
    [user, isLoading, setUser, signOut],
  );
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
