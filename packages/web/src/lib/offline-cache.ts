/** The service worker's cache of API answers seen online (src/sw.ts); emptied on sign-out. */
export const API_CACHE = 'api-answers';

/** Set by the service worker on an API answer that came from its cache, not the network. */
export const FROM_CACHE_HEADER = 'X-Campus-Books-Offline-Copy';

/**
 * The public reads a student may reopen offline: searches, listings, course pages, the most wanted
 * books and the public configuration. Never the account (/api/auth, /api/user, /api/saved), uploads,
 * moderation or one-time links.
 */
const OFFLINE_READABLE =
  /^\/api\/(listing\/get(\/[^/]+)?|course\/[^/]+|alerts\/most-wanted|config)$/;

export function isOfflineReadableApi(pathname: string): boolean {
  return OFFLINE_READABLE.test(pathname);
}
