import { z } from 'zod';
import { apiSchemas } from './api';
import { isLinkText } from './text';

/** The longest push endpoint URL accepted (the services' own are 200–500 characters). */
export const PUSH_ENDPOINT_MAX_LENGTH = 2048;

export const PUSH_MESSAGES = {
  endpoint: 'This browser gave an address for notifications that this server cannot use',
  keys: "This browser's notification keys are not valid",
  notSupported: 'This browser cannot show notifications from this site',
  denied: 'Notifications are blocked for this site: allow them in the browser’s settings',
} as const;

const base64url = (bytes: number, message: string) =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, message)
    .refine((value) => {
      const unpadded = value.replace(/=+$/, '');
      return Math.floor((unpadded.length * 3) / 4) === bytes;
    }, message);

/**
 * A browser's push subscription as `PushSubscription.toJSON()` gives it: the push service's endpoint
 * and the keys its payloads are encrypted with (RFC 8291: a P-256 public key, a 16-byte secret).
 * `alerts`: also notify alert matches (omitted: leave the device's choice as it is; new: off).
 */
export const pushSubscriptionInputSchema = z.object({
  endpoint: z
    .string()
    .trim()
    .max(PUSH_ENDPOINT_MAX_LENGTH, PUSH_MESSAGES.endpoint)
    .refine(isLinkText, PUSH_MESSAGES.endpoint)
    .url(PUSH_MESSAGES.endpoint),
  keys: z.object({
    p256dh: base64url(65, PUSH_MESSAGES.keys),
    auth: base64url(16, PUSH_MESSAGES.keys),
  }),
  alerts: z.boolean().optional(),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInputSchema>;

/** Which subscription to forget: the endpoint names it. */
export const pushUnsubscribeSchema = z.object({
  endpoint: z
    .string()
    .trim()
    .min(1)
    .max(PUSH_ENDPOINT_MAX_LENGTH, PUSH_MESSAGES.endpoint)
    .refine(isLinkText, PUSH_MESSAGES.endpoint),
});

/** This device's subscription as the server keeps it. */
export const pushSubscriptionSchema = z
  .object({ endpoint: z.string(), alerts: z.boolean() })
  .register(apiSchemas, { id: 'PushSubscription' });
export type PushSubscriptionAnswer = z.infer<typeof pushSubscriptionSchema>;

/** The student's subscribed devices (a device knows itself by its endpoint), newest first. */
export const pushSubscriptionListSchema = z
  .object({ subscriptions: z.array(pushSubscriptionSchema) })
  .register(apiSchemas, { id: 'PushSubscriptionList' });
export type PushSubscriptionList = z.infer<typeof pushSubscriptionListSchema>;

/** The server's VAPID public key (base64url, uncompressed P-256): `applicationServerKey`. */
export const pushPublicKeySchema = z
  .object({ publicKey: z.string() })
  .register(apiSchemas, { id: 'PushPublicKey' });

/**
 * What a notification carries (encrypted for the device, docs/security.md "Push notifications"):
 * what happened and where to go, never a message's words, an amount or a student's name.
 */
export const pushPayloadSchema = z.object({
  kind: z.enum(['message', 'offer', 'alert']),
  /** The notification's title, e.g. "New message about Organic Chemistry". */
  title: z.string(),
  /** The page a tap opens (a path of this site). */
  url: z.string().startsWith('/'),
  /** One notification per conversation or listing: a newer one replaces it. */
  tag: z.string(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
