import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import type { PushPayload } from '@campus-books/common/push.schemas';
import { isAllowedEndpoint, PRIVATE_ADDRESS, publicOnlyLookup } from './push-endpoint';

/** How long the server waits for a push service. */
export const PUSH_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 64 * 1024;

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushSendOptions {
  vapid: { publicKey: string; privateKey: string; subject: string };
  /** How long the push service keeps it for a device that is offline, in seconds. */
  ttlSeconds: number;
  urgency: 'normal' | 'high';
  /** A newer push with the same topic replaces one the service still holds (≤ 32 URL-safe chars). */
  topic: string;
  /** PUSH_TEST_ENDPOINTS: http:// and private addresses allowed (a local stand-in). */
  testEndpoints: boolean;
}

/**
 * `sent`: the push service took it; `gone`: it answered 404 or 410, the subscription is dead;
 * `refused`: it will never take this one (a bad request, the keys no longer match): not retried.
 * A failure worth retrying (network, time-out, 429, 5xx) throws.
 */
export type PushOutcome = 'sent' | 'gone' | 'refused';

export class PushServiceError extends Error {
  constructor(
    message: string,
    readonly statusCode?: number,
  ) {
    super(message);
    this.name = 'PushServiceError';
  }
}

/**
 * Encrypts the payload for the device (RFC 8291, aes128gcm, by web-push), signs a VAPID JWT
 * (RFC 8292) and POSTs it to the push service: https, the name resolved to public addresses only,
 * no redirect followed, a bounded wait and answer.
 */
export async function sendPush(
  target: PushTarget,
  payload: PushPayload,
  options: PushSendOptions,
): Promise<PushOutcome> {
  if (!isAllowedEndpoint(target.endpoint, options.testEndpoints)) return 'refused';
  const details = webpush.generateRequestDetails(
    { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: options.vapid,
      TTL: options.ttlSeconds,
      urgency: options.urgency,
      topic: options.topic,
      contentEncoding: 'aes128gcm',
    },
  );
  const url = new URL(details.endpoint);
  const client = url.protocol === 'http:' ? http : https;
  const status = await new Promise<number>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: details.method,
        headers: details.headers as http.OutgoingHttpHeaders,
        timeout: PUSH_TIMEOUT_MS,
        ...(options.testEndpoints ? {} : { lookup: publicOnlyLookup }),
      },
      (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > MAX_ANSWER_BYTES) response.destroy();
        });
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('close', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('timeout', () =>
      request.destroy(new PushServiceError('The push service did not answer in time')),
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      // A name resolving to a private address stays one: never retried.
      if (error.code === PRIVATE_ADDRESS) resolve(-1);
      else reject(error instanceof PushServiceError ? error : new PushServiceError(error.message));
    });
    request.end(details.body ?? undefined);
  });
  if (status >= 200 && status < 300) return 'sent';
  if (status === 404 || status === 410) return 'gone';
  if (status === 429 || status >= 500) {
    throw new PushServiceError(`The push service answered ${status}`, status);
  }
  return 'refused';
}
