/// <reference lib="webworker" />
// The service worker's Web Push handlers (registered in sw.ts; tested with fake events in
// sw-push.test.ts): a push always shows a notification (browsers require one for each push, and
// iOS drops a subscription that receives one without), and a tap opens the page it is about.
import type { PushPayload } from '@campus-books/common/push.schemas';

/**
 * What is shown when a push cannot be read (it always shows something, and leads to the inbox).
 * Worded without the product's name: that is the campus's, which the service worker does not have
 * (no page, no campus element), and the system names the app or site a notification comes from.
 */
export const FALLBACK_NOTIFICATION = {
  title: 'Something new in your messages',
  body: 'Tap to open your messages.',
  url: '/messages',
  tag: 'campus-books',
} as const;

const BODY_BY_KIND: Record<PushPayload['kind'], string> = {
  message: 'Tap to read it.',
  offer: 'Tap to see the offer.',
  alert: 'Tap to see the listing.',
};

/**
 * The campus's icon (server/src/plugins/web-icons.ts), at the address without its version: the
 * server answers the current one there, checked on every use, so a new logo shows at once.
 */
const ICON = '/campus-icons/icon-192.png';

export interface ShownNotification {
  title: string;
  body: string;
  url: string;
  tag: string;
}

/** A path of this site, or the inbox: a payload never sends a tap to another site. */
export function samePagePath(value: unknown, origin: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) {
    return FALLBACK_NOTIFICATION.url;
  }
  try {
    const url = new URL(value, origin);
    return url.origin === origin
      ? `${url.pathname}${url.search}${url.hash}`
      : FALLBACK_NOTIFICATION.url;
  } catch {
    return FALLBACK_NOTIFICATION.url;
  }
}

/** The notification a push's payload (common/push.schemas `pushPayloadSchema`) asks for. */
export function notificationFromPayload(
  data: Pick<PushMessageData, 'text'> | null | undefined,
  origin: string,
): ShownNotification {
  let payload: Partial<Record<keyof PushPayload | 'body', unknown>>;
  try {
    const parsed: unknown = JSON.parse(data?.text() ?? '');
    if (typeof parsed !== 'object' || parsed === null) return { ...FALLBACK_NOTIFICATION };
    payload = parsed;
  } catch {
    return { ...FALLBACK_NOTIFICATION };
  }
  const kind =
    typeof payload.kind === 'string' && payload.kind in BODY_BY_KIND
      ? (payload.kind as PushPayload['kind'])
      : undefined;
  const title =
    typeof payload.title === 'string' && payload.title.trim() ? payload.title : undefined;
  return {
    title: title ?? FALLBACK_NOTIFICATION.title,
    body:
      typeof payload.body === 'string'
        ? payload.body
        : kind
          ? BODY_BY_KIND[kind]
          : FALLBACK_NOTIFICATION.body,
    url: samePagePath(payload.url, origin),
    tag: typeof payload.tag === 'string' && payload.tag ? payload.tag : FALLBACK_NOTIFICATION.tag,
  };
}

/** `push`: shows the payload's notification; the event lasts until it is shown. */
export function handlePush(
  event: Pick<PushEvent, 'data' | 'waitUntil'>,
  registration: Pick<ServiceWorkerRegistration, 'showNotification'>,
  origin: string,
): void {
  const shown = notificationFromPayload(event.data, origin);
  event.waitUntil(
    registration.showNotification(shown.title, {
      body: shown.body,
      tag: shown.tag,
      icon: ICON,
      badge: ICON,
      data: { url: shown.url },
      lang: 'en',
    }),
  );
}

/**
 * `notificationclick`: closes the notification, then focuses a window of the app already at its
 * page, or opens the page in a new one (a window elsewhere in the app is left as it is: it may
 * hold a half-written listing or message).
 */
export function handleNotificationClick(
  event: Pick<NotificationEvent, 'notification' | 'waitUntil'>,
  clients: Pick<Clients, 'matchAll' | 'openWindow'>,
  origin: string,
): void {
  event.notification.close();
  const data: unknown = event.notification.data;
  const path = samePagePath(
    typeof data === 'object' && data !== null ? (data as { url?: unknown }).url : undefined,
    origin,
  );
  const target = new URL(path, origin).href;
  event.waitUntil(
    (async () => {
      const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => client.url === target);
      if (open) {
        await open.focus();
        return;
      }
      await clients.openWindow(target);
    })(),
  );
}
