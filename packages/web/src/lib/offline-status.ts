import { useSyncExternalStore } from 'react';

/** online; offline (the browser says so); or showing an API answer the service worker kept. */
export type OfflineState = 'online' | 'offline' | 'offline-copy';

let showingCopy = false;
const listeners = new Set<() => void>();

/** The api client tells whether the last API answer came from the service worker's cache. */
export function noteApiAnswer(fromCache: boolean): void {
  if (fromCache === showingCopy) return;
  showingCopy = fromCache;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const readState = (): OfflineState =>
  showingCopy ? 'offline-copy' : navigator.onLine ? 'online' : 'offline';

/** A page rendered on the server, and its hydration, are online. */
const readServerState = (): OfflineState => 'online';

export function useOfflineState(): OfflineState {
  return useSyncExternalStore(subscribe, readState, readServerState);
}
