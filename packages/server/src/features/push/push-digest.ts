import { webPaths } from '@campus-books/common/paths';
import type { NotificationKind } from '@campus-books/common/notification.schemas';
import type { PushPayload } from '@campus-books/common/push.schemas';
import type { Db } from '../../db/database';
import type { Jobs } from '../../jobs/jobs';
import { takeDueDigests } from '../notifications/digest';
import { PUSH_JOB, PUSH_MAX_ATTEMPTS } from './push-job';
import { findSubscriptionIdsOf } from './push.repository';

export const PUSH_DIGEST_JOB = 'push.digest';

/** The choice each push answers to (notifications/deliver.ts), and back for a digest's kind. */
export const PUSH_KIND_CHOICE: Record<PushPayload['kind'], NotificationKind> = {
  message: 'messages',
  offer: 'offers',
  alert: 'alerts',
};
const pushKindOf = (kind: string): PushPayload['kind'] =>
  kind === 'offers' ? 'offer' : kind === 'alerts' ? 'alert' : 'message';

/** What one digest push says: the one held notification as it was, or how many and where. */
export function digestPayload(items: { kind: string; title: string; body: string }[]): PushPayload {
  // A push is held once per device: the same notification counts once.
  const unique = [...new Map(items.map((item) => [`${item.title}\n${item.body}`, item])).values()];
  const first = unique[0]!;
  if (unique.length === 1) {
    return { kind: pushKindOf(first.kind), title: first.title, url: first.body, tag: 'digest' };
  }
  const aboutConversations = unique.some((item) => item.kind !== 'alerts');
  // The first kind of the three that any held notification has: messages, offers, alerts.
  const kind = (['messages', 'offers', 'alerts'] as const).find((one) =>
    unique.some((item) => item.kind === one),
  );
  return {
    kind: pushKindOf(kind ?? first.kind),
    title: `${unique.length} notifications during your quiet hours`,
    url: aboutConversations ? webPaths.messages.href() : first.body,
    tag: 'digest',
  };
}

/**
 * After a student's quiet hours, what was held for push goes as ONE notification to each of their
 * devices (a `push.send` job per device, so the usual retries and gone devices apply).
 */
export async function queuePushDigests(
  { db, jobs }: { db: Db; jobs: Pick<Jobs, 'enqueue'> },
  now: Date,
): Promise<number> {
  let queued = 0;
  for await (const due of takeDueDigests(db, 'push', now)) {
    const digest = digestPayload(due.items);
    for (const subscription of await findSubscriptionIdsOf(db, due.userId)) {
      await jobs.enqueue(PUSH_JOB, { subscription, digest }, { maxAttempts: PUSH_MAX_ATTEMPTS });
      queued += 1;
    }
  }
  return queued;
}
