import {
  NOTIFICATION_KINDS,
  type NotificationKind,
} from '@campus-books/common/notification.schemas';
import { webPaths } from '@campus-books/common/paths';
import { hkdfSync } from 'node:crypto';
import { currentCampusSchema } from '../../campuses/campus-context';
import { readSignedToken, signToken } from '../../lib/signed-token';

/** How long an unsubscribe link in a mail keeps working. */
export const UNSUBSCRIBE_LINK_DAYS = 90;

/** What one link stops: some of a student's alerts, and/or the mails about their saved listings. */
export interface UnsubscribeScope {
  alertIds: string[];
  savedListings: boolean;
  /** The end-of-term mail ("sell my shelf", features/shelf). */
  termEndMail: boolean;
  /** The mails about unread messages (features/conversations). */
  messageMails: boolean;
  /** The kinds whose mails it turns off (features/notifications): the meetups', the ratings'. */
  kinds: NotificationKind[];
}

interface TokenBody {
  /** The alerts it stops. */
  a: string[];
  /** 1 when it stops the mails about saved listings (price drops, sales); absent in older links. */
  s?: 1;
  /** 1 when it stops the end-of-term mail. */
  t?: 1;
  /** 1 when it stops the mails about unread messages. */
  m?: 1;
  /** The notification kinds whose mails it stops; absent in older links. */
  k?: string[];
  /** Their owner. */
  u: string;
  /** Expiry, in seconds since the epoch. */
  x: number;
}

// The key's label predates saved-listing mails: kept, so links already mailed keep working.
const LABEL = 'alert-unsubscribe';

/**
 * The secret a campus signs and reads its links with (decision 024): a campus of the directory's is
 * derived from the server's and its schema (HKDF-SHA256), so a link minted for one campus's student
 * is refused on every other campus's host, even for an id that exists there. The default campus
 * (`public`: a single-campus installation) keeps the server's own, so links already mailed work.
 * Both ends run as the campus (a request on its host, its mail job in its context).
 */
function campusSecret(secret: string): string {
  const schema = currentCampusSchema();
  if (schema === 'public') return secret;
  const key = hkdfSync('sha256', secret, schema, 'campus-books unsubscribe links', 32);
  return Buffer.from(key).toString('base64url');
}

/**
 * The token of a mail's unsubscribe links (alert matches and saved-listing news, docs/decisions/010):
 * what it stops and its owner, signed with the campus's secret (`campusSecret`), with an expiry.
 */
export function signUnsubscribeToken(
  secret: string,
  userId: string,
  alertIds: string[],
  now: Date,
  options: {
    savedListings?: boolean;
    termEndMail?: boolean;
    messageMails?: boolean;
    kinds?: NotificationKind[];
  } = {},
): string {
  const body: TokenBody = {
    a: [...alertIds].sort(),
    ...(options.savedListings ? { s: 1 as const } : {}),
    ...(options.termEndMail ? { t: 1 as const } : {}),
    ...(options.messageMails ? { m: 1 as const } : {}),
    ...(options.kinds?.length ? { k: [...options.kinds] } : {}),
    u: userId,
    x: Math.floor(now.getTime() / 1000) + UNSUBSCRIBE_LINK_DAYS * 86_400,
  };
  return signToken(campusSecret(secret), LABEL, body);
}

/** What a token stops and for whom; null when it is forged, malformed or expired. */
export function readUnsubscribeToken(
  secret: string,
  token: string,
  now: Date,
): ({ userId: string } & UnsubscribeScope) | null {
  const body = readSignedToken(campusSecret(secret), LABEL, token) as TokenBody | null;
  if (!body) return null;
  if (typeof body.x !== 'number' || body.x * 1000 <= now.getTime()) return null;
  if (typeof body.u !== 'string' || !Array.isArray(body.a)) return null;
  if (!body.a.every((id) => typeof id === 'string')) return null;
  return {
    userId: body.u,
    alertIds: body.a,
    savedListings: body.s === 1,
    termEndMail: body.t === 1,
    messageMails: body.m === 1,
    kinds: Array.isArray(body.k) ? NOTIFICATION_KINDS.filter((kind) => body.k?.includes(kind)) : [],
  };
}

/**
 * A mail's one-click unsubscribe from its kind (the meetups', the ratings'): the line its text
 * ends with and the RFC 8058 headers, both turning off that kind's mails and nothing else.
 */
export function kindUnsubscribe(
  config: { publicUrl: string; sessionSecret: string },
  userId: string,
  kind: NotificationKind,
  now: Date,
) {
  const token = signUnsubscribeToken(config.sessionSecret, userId, [], now, { kinds: [kind] });
  const base = config.publicUrl;
  return {
    link: `${base}${webPaths.alertsUnsubscribe.href(token)}`,
    headers: {
      'List-Unsubscribe': `<${base}/api/alerts/unsubscribe?token=${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
