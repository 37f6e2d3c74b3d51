import { activeCampus } from '@campus-books/common/active-campus';
import type {
  NotificationChannel,
  NotificationKind,
  NotificationSettings,
  QuietHours,
} from '@campus-books/common/notification.schemas';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database';
import type { RegisterOptions } from '../../jobs/job-options';
import type { Mail, Mailer } from '../../plugins/mail';
import { loadNotificationSettings } from './notification-settings';
import { holdNotification } from './notifications.repository';

/** What a sender does with one mail or push: send it now, hold it for the digest, or drop it. */
export type Delivery = 'send' | 'hold' | 'skip';

const minuteOfDay = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether `now` falls in the quiet hours, read as local times of `timeZone`. */
export function isQuietAt(quiet: QuietHours | null, now: Date, timeZone: string): boolean {
  if (!quiet) return false;
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const at = part('hour') * 60 + part('minute');
  const [start, end] = [minuteOfDay(quiet.start), minuteOfDay(quiet.end)];
  // 22:00–07:00 runs past midnight: quiet from the start until midnight and from midnight to the end.
  return start < end ? at >= start && at < end : at >= start || at < end;
}

/**
 * The one rule every mail and push asks (issue 44): a kind the student turned off on a channel is
 * not sent there; during their quiet hours (the campus's time zone) it is held for the digest.
 */
export function shouldSend(
  settings: NotificationSettings,
  kind: NotificationKind,
  channel: NotificationChannel,
  now: Date,
  timeZone: string = activeCampus().timeZone,
): Delivery {
  if (!settings.kinds[kind][channel]) return 'skip';
  return isQuietAt(settings.quietHours, now, timeZone) ? 'hold' : 'send';
}

/** What a sender of mails passes: the database (the choices, the held items) and the mailer. */
export interface DeliverDeps {
  db: Db;
  mailer: Pick<Mailer, 'send'>;
}

/**
 * Sends a mail of `kind` to a student as their choices say: now, held for the digest after their
 * quiet hours, or not at all. Answers what was done.
 */
export async function deliverMail(
  { db, mailer }: DeliverDeps,
  recipient: { id: string; email: string },
  kind: NotificationKind,
  mail: Omit<Mail, 'to'>,
  now: Date,
): Promise<Delivery> {
  const delivery = shouldSend(await loadNotificationSettings(db, recipient.id), kind, 'mail', now);
  if (delivery === 'send') await mailer.send({ to: recipient.email, ...mail });
  if (delivery === 'hold') {
    const item = { userId: recipient.id, kind, channel: 'mail' as const };
    await holdNotification(db, { ...item, title: mail.subject, body: mail.text }, now);
  }
  return delivery;
}

/** Whether a push of `kind` goes now; held ones are kept (title, page) for the push digest. */
export async function deliverPush(
  db: Db,
  userId: string,
  kind: NotificationKind,
  push: { title: string; url: string },
  now: Date,
): Promise<Delivery> {
  const delivery = shouldSend(await loadNotificationSettings(db, userId), kind, 'push', now);
  if (delivery === 'hold') {
    const item = { userId, kind, channel: 'push' as const, title: push.title, body: push.url };
    await holdNotification(db, item, now);
  }
  return delivery;
}

/** What a recurring mail run reads of the app: its database, mailer, log and configuration. */
export interface MailRunDeps {
  db: FastifyInstance['database']['db'];
  mailer: FastifyInstance['mailer'];
  log: FastifyInstance['log'];
  config: FastifyInstance['config'];
}

/** Registers a recurring mail run: `send`, given the app's database, mailer, log and config. */
export function registerMailRun(
  app: FastifyInstance,
  job: string,
  send: (deps: MailRunDeps, now: Date) => Promise<unknown>,
  schedule: RegisterOptions,
): void {
  const deps: MailRunDeps = {
    db: app.database.db,
    mailer: app.mailer,
    log: app.log,
    config: app.config,
  };
  app.jobs.register(
    job,
    async ({ now }) => {
      await send(deps, now);
    },
    schedule,
  );
}
