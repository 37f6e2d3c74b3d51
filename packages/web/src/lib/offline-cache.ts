import { SSR_STATE_ELEMENT_ID } from '@campus-books/common/server-rendering';

/** The service worker's cache of API answers seen online (src/sw.ts); emptied on sign-out. */
export const API_CACHE = 'api-answers';

/** Its cache of the server-rendered pages seen online (they show who is signed in: emptied too). */
export const PAGE_CACHE = 'rendered-pages';

/** The pages the server renders with their data (docs/decisions/012), kept for offline use. */
const SERVER_RENDERED = /^\/(search|listing\/[^/]+|course\/[^/]+)?$/;

export function isServerRenderedPage(pathname: string): boolean {
  return SERVER_RENDERED.test(pathname);
}

/** A kept page as the service worker serves it offline: its state says it is a copy (main.tsx). */
export function markOfflineCopy(html: string): string {
  const start = `id="${SSR_STATE_ELEMENT_ID}">{`;
  return html.replace(start, () => `${start}"offlineCopy":true,`);
}

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
