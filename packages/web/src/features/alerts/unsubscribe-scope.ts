import {
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_KINDS,
  type NotificationKind,
} from '@campus-books/common/notification.schemas';

/** What a mail's unsubscribe link stops, read from its token to word the page. */
export interface UnsubscribeScope {
  alerts: number;
  savedListings: boolean;
  /** The mails about unread messages. */
  messages: boolean;
  /** The end-of-term mail. */
  termEnd: boolean;
  /** The kinds whose mails it turns off (a meetup's, a rating prompt's). */
  kinds: NotificationKind[];
}

/**
 * What a mail's unsubscribe token names, read from its (signed, not secret) body to word the page:
 * some alerts, the mails about saved listings, unread messages, the end of term, or a kind's mails.
 * The server checks the signature on the POST.
 */
export function scopeOf(token: string): UnsubscribeScope {
  try {
    const body = token.split('.')[0]!.replace(/-/g, '+').replace(/_/g, '/');
    const parsed = JSON.parse(atob(body)) as {
      a?: unknown;
      s?: unknown;
      m?: unknown;
      t?: unknown;
      k?: unknown;
    };
    const named = Array.isArray(parsed.k) ? (parsed.k as unknown[]) : [];
    return {
      alerts: Array.isArray(parsed.a) ? parsed.a.length : 0,
      savedListings: parsed.s === 1,
      messages: parsed.m === 1,
      termEnd: parsed.t === 1,
      kinds: NOTIFICATION_KINDS.filter((kind) => named.includes(kind)),
    };
  } catch {
    return { alerts: 1, savedListings: false, messages: false, termEnd: false, kinds: [] };
  }
}

/** Whether the link stops a kind of mail the notifications page chooses (not an alert's). */
export const isNotificationKind = (scope: UnsubscribeScope) =>
  scope.messages || scope.termEnd || scope.kinds.length > 0;

export function describeScope(scope: UnsubscribeScope): string {
  const parts: string[] = [];
  if (scope.alerts === 1) parts.push('this alert');
  if (scope.alerts > 1) parts.push(`these ${scope.alerts} alerts`);
  if (scope.savedListings) parts.push('your saved listings (price drops and sales)');
  if (scope.messages) parts.push('the messages you have not read');
  if (scope.termEnd) parts.push('the courses you can sell into at the end of a term');
  for (const kind of scope.kinds) parts.push(NOTIFICATION_KIND_LABELS[kind].toLowerCase());
  return parts.length > 0 ? parts.join(' and ') : 'this alert';
}
