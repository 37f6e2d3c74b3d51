import { apiCall } from '../../lib/api-client';

/**
 * The query key of this device's Web Push state. Kept here rather than in lib/query-keys, which the
 * home page's first load carries: only the profile page needs it.
 */
export const PUSH_DEVICE_QUERY_KEY = ['push-device'] as const;

/**
 * This device's Web Push state (docs/api/push.md): `unsupported` (no service worker or push in
 * this browser, or not installed where that is required), `blocked` (the student or the browser
 * said no: only the browser's settings can change it), `off`, or `on` (the browser holds a
 * subscription and the server has it for this student), with its alerts choice.
 */
export type PushDeviceState =
  | { status: 'unsupported' }
  | { status: 'blocked' }
  | { status: 'off' }
  | { status: 'on'; endpoint: string; alerts: boolean };

const isSupported = () =>
  typeof window !== 'undefined' &&
  window.isSecureContext &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

/** The service worker's registration, once it is active (main.tsx registers it after load). */
async function activeRegistration(): Promise<ServiceWorkerRegistration | undefined> {
  const registration =
    (await navigator.serviceWorker.getRegistration()) ??
    (await navigator.serviceWorker.register('/sw.js').catch(() => undefined));
  if (!registration) return undefined;
  return navigator.serviceWorker.ready;
}

const base64url = (bytes: ArrayBuffer | null | undefined) =>
  bytes
    ? btoa(String.fromCharCode(...new Uint8Array(bytes)))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '')
    : '';

function bytesOf(key: string): Uint8Array<ArrayBuffer> {
  const binary = atob(key.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export async function readPushDeviceState(signal?: AbortSignal): Promise<PushDeviceState> {
  if (!isSupported()) return { status: 'unsupported' };
  if (Notification.permission === 'denied') return { status: 'blocked' };
  const registration = await activeRegistration();
  if (!registration) return { status: 'unsupported' };
  const subscription = await registration.pushManager.getSubscription();
  if (!subscription || Notification.permission !== 'granted') return { status: 'off' };
  const { subscriptions } = await apiCall('GET /api/push/subscriptions', { signal });
  const mine = subscriptions.find((s) => s.endpoint === subscription.endpoint);
  return mine ? { status: 'on', endpoint: mine.endpoint, alerts: mine.alerts } : { status: 'off' };
}

/** The subscription's body for the server: PushSubscription.toJSON()'s endpoint and keys. */
function subscriptionBody(subscription: PushSubscription, alerts: boolean | undefined) {
  const json = subscription.toJSON();
  return {
    endpoint: subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    ...(alerts === undefined ? {} : { alerts }),
  };
}

/**
 * Asks the browser's permission, subscribes with the server's VAPID key (a subscription made with
 * another key, before the operators changed it, is replaced) and gives it to the server. Called
 * again with the other `alerts`, it changes that choice (the permission is not asked twice).
 */
export async function turnPushOn(alerts: boolean): Promise<PushDeviceState> {
  if (!isSupported()) return { status: 'unsupported' };
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return { status: 'blocked' };
  if (permission !== 'granted') return { status: 'off' };
  const registration = await activeRegistration();
  if (!registration) return { status: 'unsupported' };
  const { publicKey } = await apiCall('GET /api/push/key');
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && base64url(subscription.options.applicationServerKey) !== publicKey) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: bytesOf(publicKey),
  });
  const saved = await apiCall('POST /api/push/subscriptions', {
    body: subscriptionBody(subscription, alerts),
  });
  return { status: 'on', endpoint: saved.endpoint, alerts: saved.alerts };
}

/** Off on both sides: the server forgets the device, then the browser drops the subscription. */
export async function turnPushOff(): Promise<PushDeviceState> {
  const registration = await activeRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  if (subscription) {
    await apiCall('DELETE /api/push/subscriptions', { body: { endpoint: subscription.endpoint } });
    await subscription.unsubscribe();
  }
  return { status: 'off' };
}
