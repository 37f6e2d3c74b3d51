import { activeCampus } from '@campus-books/common/active-campus';
import {
  NOTIFICATION_KINDS,
  type NotificationChannel,
  type NotificationKind,
} from '@campus-books/common/notification.schemas';
import { webPaths } from '@campus-books/common/paths';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db/database';
import type { Mailer } from '../../plugins/mail';
import { isQuietAt } from './deliver';
import { loadNotificationSettings } from './notification-settings';
import {
  dropHeldOfSuspended,
  findHeldRecipients,
  restoreHeld,
  takeHeld,
  type HeldItem,
} from './notifications.repository';

export const MAIL_DIGEST_JOB = 'notifications.mail-digest';
/** How often the held items are looked at: a digest comes at most this long after quiet hours. */
export const DIGEST_CHECK_MS = 5 * 60_000;

const isKind = (kind: string): kind is NotificationKind =>
  (NOTIFICATION_KINDS as readonly string[]).includes(kind);

/**
 * The students whose quiet hours are over and what was held for them on a channel, taken (so one
 * run sends it once): the items of a kind they have since turned off on that channel are dropped,
 * and so is everything held for a student suspended since (nothing reaches them any more).
 */
export async function* takeDueDigests(db: Db, channel: NotificationChannel, now: Date) {
  await dropHeldOfSuspended(db, channel);
  for (const recipient of await findHeldRecipients(db, channel)) {
    const settings = await loadNotificationSettings(db, recipient.user_id);
    if (isQuietAt(settings.quietHours, now, activeCampus().timeZone)) continue;
    const taken = await takeHeld(db, recipient.user_id, channel);
    const items = taken.filter((item) => isKind(item.kind) && settings.kinds[item.kind][channel]);
    if (items.length > 0) yield { userId: recipient.user_id, email: recipient.email, items };
  }
}

function digestMail(publicUrl: string, items: HeldItem[]) {
  const count = items.length === 1 ? 'one mail' : `${items.length} mails`;
  return {
    subject: `While your quiet hours: ${count} from ${activeCampus().productName}`,
    text: [
      `What came during your quiet hours, in one mail:`,
      ...items.flatMap((item) => ['', `== ${item.title}`, '', item.body]),
      '',
      `Choose what reaches you, and when: ${publicUrl}${webPaths.notifications.href()}`,
    ].join('\n'),
  };
}

export interface DigestDeps {
  db: Db;
  mailer: Pick<Mailer, 'send'>;
  log: Pick<FastifyBaseLogger, 'warn'>;
  publicUrl: string;
}

/**
 * Mails each student whose quiet hours ended what was held for them, as one mail (never a burst).
 * A digest that fails is put back for the next run.
 */
export async function sendMailDigests(deps: DigestDeps, now: Date): Promise<number> {
  let sent = 0;
  for await (const due of takeDueDigests(deps.db, 'mail', now)) {
    try {
      await deps.mailer.send({ to: due.email, ...digestMail(deps.publicUrl, due.items) });
      sent += 1;
    } catch (error) {
      deps.log.warn({ err: error, userId: due.userId }, 'mail digest failed; retried next run');
      await restoreHeld(deps.db, due.userId, 'mail', due.items);
    }
  }
  return sent;
}

/** The recurring run, every DIGEST_CHECK_MS (one server per slot: src/jobs). */
export default fp(
  async function mailDigestPlugin(app: FastifyInstance) {
    const deps: DigestDeps = {
      db: app.database.db,
      mailer: app.mailer,
      log: app.log,
      // Read at each run: the address of the campus the job runs for (decision 024).
      get publicUrl() {
        return app.config.publicUrl;
      },
    };
    app.jobs.register(
      MAIL_DIGEST_JOB,
      async ({ now }) => {
        await sendMailDigests(deps, now);
      },
      { every: DIGEST_CHECK_MS },
    );
  },
  { name: 'mail-digest', dependencies: ['jobs', 'mail'] },
);
