/// <reference lib="webworker" />
// The service worker (built to /sw.js by vite-plugin-pwa, injectManifest): the app shell precached,
// the listings a student has seen kept for when the network is gone (docs/decisions/011), and the
// notifications of Web Push (sw-push.ts).
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim } from 'workbox-core';
import { CacheExpiration, ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, NetworkOnly } from 'workbox-strategies';
import { addressWithDefaultStatus } from './features/search/search-filters';
import {
  API_CACHE,
  FROM_CACHE_HEADER,
  PAGE_CACHE,
  isOfflineReadableApi,
  isServerRenderedPage,
  markOfflineCopy,
} from './lib/offline-cache';
import { handleNotificationClick, handlePush } from './sw-push';

declare const self: ServiceWorkerGlobalScope;

// A new version takes over at once (no prompt): the next navigation loads the new shell.
void self.skipWaiting();
clientsClaim();

// Pages: the network first, so a deploy shows at once. The server-rendered pages seen online are kept
// (they carry their data: docs/decisions/012) and opened from here when the network fails, marked as
// a copy; any other page gets the precached shell. Registered before the precache route, which would
// otherwise answer "/" from the cache.
const pageFromNetwork = new NetworkOnly({ networkTimeoutSeconds: 5 });
const keptPages = new CacheExpiration(PAGE_CACHE, {
  maxEntries: 50,
  maxAgeSeconds: 7 * 24 * 60 * 60,
});

async function keepPage(url: string, response: Response): Promise<void> {
  const cache = await caches.open(PAGE_CACHE);
  await cache.put(url, response);
  await keptPages.updateTimestamp(url);
  await keptPages.expireEntries();
}

async function keptPage(url: URL): Promise<Response | undefined> {
  // A search without a status filter is redirected online; offline too, to the page kept for it.
  const withStatus = url.pathname === '/search' ? addressWithDefaultStatus(url.search) : null;
  if (withStatus) return Response.redirect(new URL(withStatus, url).href, 302);
  const kept = await caches.match(url.href, { cacheName: PAGE_CACHE });
  if (!kept) return undefined;
  return new Response(markOfflineCopy(await kept.text()), {
    status: kept.status,
    headers: kept.headers,
  });
}

registerRoute(
  new NavigationRoute(
    async (options) => {
      const url = new URL(options.request.url);
      const rendered = isServerRenderedPage(url.pathname);
      try {
        const response = await pageFromNetwork.handle(options);
        if (rendered && response.ok && response.type === 'basic') {
          options.event.waitUntil(keepPage(url.href, response.clone()).catch(() => undefined));
        }
        return response;
      } catch {
        return (
          (rendered ? await keptPage(url) : undefined) ??
          (await matchPrecache('/index.html')) ??
          Response.error()
        );
      }
    },
    { denylist: [/^\/api(\/|$)/] },
  ),
);

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Listings, searches and course pages seen online, for when the network is gone. Always the
// network first (fresh when online); the copy is marked so the page can say it is not live.
registerRoute(
  ({ url, request, sameOrigin }) =>
    sameOrigin && request.method === 'GET' && isOfflineReadableApi(url.pathname),
  new NetworkFirst({
    cacheName: API_CACHE,
    networkTimeoutSeconds: 4,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 200, maxAgeSeconds: 7 * 24 * 60 * 60 }),
      {
        cachedResponseWillBeUsed: async ({ cachedResponse }) => {
          if (!cachedResponse) return cachedResponse;
          const headers = new Headers(cachedResponse.headers);
          headers.set(FROM_CACHE_HEADER, '1');
          return new Response(cachedResponse.body, { status: cachedResponse.status, headers });
        },
      },
    ],
  }),
);

// Listing photos: stored under an id that never changes content, so the cache answers first.
registerRoute(
  ({ url, request, sameOrigin }) =>
    sameOrigin && request.method === 'GET' && url.pathname.startsWith('/api/images/'),
  new CacheFirst({
    cacheName: 'listing-images',
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({
        maxEntries: 150,
        maxAgeSeconds: 30 * 24 * 60 * 60,
        purgeOnQuotaError: true,
      }),
    ],
  }),
);
// The campus's palette (/campus.css?v=<version>, server/src/plugins/web-campus.ts): one address per
// version of the campus, so the kept copy answers first (offline too); a new campus is a new address.
registerRoute(
  ({ url, request, sameOrigin }) =>
    sameOrigin && request.method === 'GET' && url.pathname === '/campus.css' && url.search !== '',
  new CacheFirst({
    cacheName: 'campus-theme',
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 2 }),
    ],
  }),
);
// Web Push (features/profile/push-notifications): each push shows its notification, a tap opens its page.
self.addEventListener('push', (event) =>
  handlePush(event, self.registration, self.location.origin),
);
self.addEventListener('notificationclick', (event) =>
  handleNotificationClick(event, self.clients, self.location.origin),
);

// Everything else (sign-in, the account, uploads, every write) is not routed: the browser's own fetch.
