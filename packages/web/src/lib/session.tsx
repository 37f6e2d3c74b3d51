import type { CurrentUser } from '@campus-books/common/account.schemas';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  use,
  useCallback,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { ApiError, apiRequest } from './api-client';
import { SESSION_STORAGE_KEY, readStoredUser, writeStoredUser } from './session-storage';

export interface Session {
  user: CurrentUser | null;
  /** True until GET /api/auth/me has confirmed (or refused) the cached user. */
  isLoading: boolean;
  setUser(user: CurrentUser | null): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/**
 * Holds the signed-in user. The cached copy renders the header at once; the server's answer to
 * GET /api/auth/me then confirms it, and a 401 signs the visitor out cleanly.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [user, setUserState] = useState<CurrentUser | null>(readStoredUser);
  const [isLoading, setIsLoading] = useState(true);

  const setUser = useCallback((next: CurrentUser | null) => {
    writeStoredUser(next);
    setUserState(next);
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    apiRequest<CurrentUser>('/api/auth/me', { signal: controller.signal })
      .then((me) => setUser(me))
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401) setUser(null);
        // Any other failure (offline, server restarting) keeps the cached user.
      })
      .finally(() => {
        if (!controller.signal.aborted) setIsLoading(false);
      });
    return () => controller.abort();
  }, [setUser]);

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
      await apiRequest('/api/auth/signout');
    } finally {
      setUser(null);
      queryClient.clear();
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
