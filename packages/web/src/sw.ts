/// <reference lib="webworker" />
// The service worker (built to /sw.js by vite-plugin-pwa, injectManifest): the app shell precached,
// the listings a student has seen kept for when the network is gone. docs/decisions/011.
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, NetworkOnly } from 'workbox-strategies';
import { API_CACHE, FROM_CACHE_HEADER, isOfflineReadableApi } from './lib/offline-cache';

declare const self: ServiceWorkerGlobalScope;

// A new version takes over at once (no prompt): the next navigation loads the new shell.
void self.skipWaiting();
clientsClaim();

// Pages: the network first, so a deploy shows at once; the precached shell when it is unreachable.
// Registered before the precache route, which would otherwise answer "/" from the cache.
const pageFromNetwork = new NetworkOnly({ networkTimeoutSeconds: 5 });
registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        return await pageFromNetwork.handle(options);
      } catch {
        return (await matchPrecache('/index.html')) ?? Response.error();
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
// Everything else (sign-in, the account, uploads, every write) is not routed: the browser's own fetch.
