import { webPaths } from '@campus-books/common/paths';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PUBLIC_LISTING_STATUSES } from '@campus-books/common/constants';
import { conditionLabel, formatPrice } from '@campus-books/common/display';
import type { Db } from '../../db/database';
import { nextDailyHour } from '../../jobs/zoned-time';
import type { Config } from '../../config/config';
import type { JobContext } from '../../jobs/job-context';
import type { Jobs } from '../../jobs/jobs';
import type { Mailer } from '../../plugins/mail';
import {
  claimNextStudentDeliveries,
  findClaimedDeliveries,
  markDeliveriesSent,
  queueAlertMatches,
  queueSavedListingNews,
  releaseDeliveries,
  type PendingRow,
} from './alert-deliveries.repository';
import { deliverMail } from '../notifications/deliver';
import { signUnsubscribeToken } from './unsubscribe-token';

/** What happened to a listing that may interest students. */
export type ListingEvent = 'created' | 'relisted' | 'price-drop' | 'sold';

export const MATCH_JOB = 'alerts.listing-event';
export const SEND_JOB = 'alerts.send';
export const DIGEST_JOB = 'alerts.digest';
/** The sender also runs this often by itself: rows left by a crash or a failed mail go out then. */
export const SEND_SWEEP_MS = 60_000;
const DAY_MS = 24 * 60 * 60_000;
/** How long a sender holds a student's rows while it mails them. */
const CLAIM_MS = 5 * 60_000;

/**
 * Called in the transaction that writes the listing: the matching happens in a job, off the request
 * path, and the job exists only if the write commits (docs/decisions/010).
 */
export async function enqueueListingEvent(
  jobs: Pick<Jobs, 'enqueue'>,
  tx: Pick<Db, 'execute'>,
  listingId: string,
  event: ListingEvent,
  price?: number,
): Promise<void> {
  await jobs.enqueue(MATCH_JOB, { listingId, event, price }, { db: tx });
}

/**
 * Writes the outbox rows of one listing event, in one transaction: every matching live alert's owner
 * (one row per student and listing, never the seller) for a new, relisted or cheaper listing, every
 * saver for a price drop or a sale. Rows that exist already are left alone, so running it again
 * adds nothing. Then asks a sender to mail them.
 */
export async function matchListingEvent(
  { db, jobs }: { db: Db; jobs: Pick<Jobs, 'enqueue'> },
  payload: { listingId: string; event: ListingEvent; price?: number },
): Promise<void> {
  const { listingId, event } = payload;
  await db.transaction(async (tx) => {
    let queued = 0;
    if (event !== 'sold') {
      const matched = await queueAlertMatches(tx, listingId);
      queued += matched.filter((r) => !r.digest).length;
    }
    if (event === 'sold' || event === 'price-drop') {
      const savedEvent =
        event === 'sold' ? 'sold' : `price:${Number(payload.price ?? 0).toFixed(2)}`;
      const saved = await queueSavedListingNews(tx, listingId, savedEvent);
      queued += saved;
    }
    if (queued > 0) await jobs.enqueue(SEND_JOB, {}, { db: tx });
  });
}

/** What mailing the outbox uses: the database, the mailer, and the links' base and key. */
export interface AlertMailDeps {
  db: Db;
  mailer: Pick<Mailer, 'send'>;
  config: Pick<Config, 'publicUrl' | 'sessionSecret'>;
}

/**
 * Mails what the outbox holds, one mail per student (with every row of theirs), until nothing is
 * left. A student's rows are claimed first (`FOR UPDATE SKIP LOCKED`, then a lease), so two servers
 * never mail them both; they are marked sent right after that student's mail went, so a sender that
 * dies mid-batch leaves only the students it had not mailed. `digest`: the daily run, which also
 * takes the rows of alerts with a daily digest.
 */
export async function sendPending(
  { db, mailer, config }: AlertMailDeps,
  options: { now: Date; digest: boolean; signal?: AbortSignal },
): Promise<number> {
  const { now, digest } = options;
  let mailed = 0;
  let failure: unknown = null;
  for (let round = 0; round < 100_000; round += 1) {
    if (options.signal?.aborted) break;
    const token = randomUUID();
    const claimed = await claimNextStudentDeliveries(db, token, {
      now,
      until: new Date(now.getTime() + CLAIM_MS),
      digest,
    });
    if (claimed === 0) break;
    const rows = await findClaimedDeliveries(db, token);
    // A matched listing sold before its mail went is not worth a mail any more; one hidden or
    // removed meanwhile is shown to nobody (the visibility rule), saved or not; and no news of a
    // saved listing goes to a student who turned those mails off since.
    const worth = rows.filter((r) =>
      r.event === 'alert'
        ? r.status === 'active'
        : r.saved_listing_mails && PUBLIC_LISTING_STATUSES.includes(r.status),
    );
    try {
      if (worth.length > 0) {
        // The student's choices: alert mails off, or held for the digest after quiet hours.
        const mail = composeMail(config, worth, now);
        const recipient = { id: worth[0]!.user_id, email: mail.to };
        if ((await deliverMail({ db, mailer }, recipient, 'alerts', mail, now)) === 'send') {
          mailed += 1;
        }
      }
      await markDeliveriesSent(db, token, now);
    } catch (error) {
      // Given back at once: a later run (this job's retry, or the sweep) mails them.
      await releaseDeliveries(db, token);
      failure = error;
      break;
    }
  }
  if (failure) throw failure;
  return mailed;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function absolute(publicUrl: string, url: string): string {
  return /^https?:\/\//.test(url) ? url : `${publicUrl}${url}`;
}

/** One mail for one student: the matches of their alerts, then news of their saved listings. */
export function composeMail(
  config: Pick<Config, 'publicUrl' | 'sessionSecret'>,
  rows: PendingRow[],
  now: Date,
) {
  const base = config.publicUrl;
  const email = rows[0]!.email;
  const userId = rows[0]!.user_id;
  const alertIds = [...new Set(rows.flatMap((r) => (r.alert_id ? [r.alert_id] : [])))];
  const matches = rows.filter((r) => r.event === 'alert');
  const news = rows.filter((r) => r.event !== 'alert');
  const describe = (r: PendingRow) => {
    const course = [r.subject, r.course_number].filter(Boolean).join(' ');
    const what =
      r.event === 'sold'
        ? 'Sold'
        : r.event.startsWith('price:')
          ? `Now ${formatPrice(Number(r.regular_price))}`
          : formatPrice(Number(r.regular_price));
    return {
      title: r.name,
      line: [what, `${conditionLabel(r.condition)} condition`, course && `Course ${course}`]
        .filter(Boolean)
        .join(' · '),
      link: `${base}${webPaths.listing.href(r.listing_id)}`,
      cover: r.image_urls[0] ? absolute(base, r.image_urls[0]) : null,
    };
  };
  const text: string[] = [];
  const html: string[] = [];
  const section = (heading: string, items: PendingRow[]) => {
    if (items.length === 0) return;
    text.push(heading, '');
    html.push(`<h2>${escapeHtml(heading)}</h2><ul>`);
    for (const item of items.map(describe)) {
      text.push(`${item.title}`, `${item.line}`, item.link, '');
      html.push(
        `<li>${item.cover ? `<img src="${escapeHtml(item.cover)}" alt="" width="80"> ` : ''}` +
          `<a href="${escapeHtml(item.link)}">${escapeHtml(item.title)}</a><br>${escapeHtml(item.line)}</li>`,
      );
    }
    html.push('</ul>');
  };
  section(
    matches.length === 1 ? 'A book you asked for was listed' : 'Books you asked for were listed',
    matches,
  );
  section('News of your saved listings', news);

  // The header's one-click unsubscribe stops what this mail is about (RFC 8058: one list per mail);
  // the links in the text stop one part at a time.
  const secret = config.sessionSecret;
  const headers: Record<string, string> = {};
  if (alertIds.length > 0 || news.length > 0) {
    const token = signUnsubscribeToken(secret, userId, alertIds, now, {
      savedListings: news.length > 0,
    });
    headers['List-Unsubscribe'] = `<${base}/api/alerts/unsubscribe?token=${token}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  const stopLink = (label: string, alerts: string[], savedListings = false) => {
    const token = signUnsubscribeToken(secret, userId, alerts, now, { savedListings });
    const url = `${base}${webPaths.alertsUnsubscribe.href(token)}`;
    text.push(`${label}: ${url}`);
    html.push(`<p><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></p>`);
  };
  if (alertIds.length > 0) {
    stopLink(alertIds.length > 1 ? 'Stop these alerts' : 'Stop this alert', alertIds);
    for (const id of alertIds.length > 1 ? alertIds : []) stopLink('Stop only one of them', [id]);
    const manage = `${base}${webPaths.profileAlerts.href()}`;
    text.push(`Manage your alerts: ${manage}`);
    html.push(`<p><a href="${escapeHtml(manage)}">Manage your alerts</a></p>`);
  }
  if (news.length > 0) {
    stopLink('Stop mails about your saved listings', [], true);
    const saved = `${base}${webPaths.saved.href()}`;
    text.push(`Your saved listings: ${saved}`);
    html.push(`<p><a href="${escapeHtml(saved)}">Your saved listings</a></p>`);
  }
  const subject =
    matches.length === 0
      ? 'News of a listing you saved'
      : matches.length === 1
        ? `Listed: ${matches[0]!.name}`
        : `${matches.length} new listings match your alerts`;
  return { to: email, subject, text: text.join('\n'), html: html.join('\n'), headers };
}

/** The jobs: matching an event, mailing the outbox (right away and every minute), the daily digest. */
export default fp(
  async function alertJobsPlugin(app: FastifyInstance) {
    const deps: AlertMailDeps = { db: app.database.db, mailer: app.mailer, config: app.config };
    app.jobs.register(
      MATCH_JOB,
      async ({ payload }: JobContext<{ listingId: string; event: ListingEvent; price?: number }>) =>
        matchListingEvent({ db: app.database.db, jobs: app.jobs }, payload),
    );
    app.jobs.register(SEND_JOB, async ({ now, signal }) => {
      await sendPending(deps, { now, digest: false, signal });
    });
    app.jobs.register(
      'alerts.send-sweep',
      async ({ now, signal }) => {
        await sendPending(deps, { now, digest: false, signal });
      },
      { every: SEND_SWEEP_MS },
    );
    // At ALERT_DIGEST_HOUR in CAMPUS_TIME_ZONE every day (docs/operations.md): read when the slot
    // is worked out, so each campus of a many-campus installation has its own hour (decision 024).
    app.jobs.register(
      DIGEST_JOB,
      async ({ now, signal }) => {
        await sendPending(deps, { now, digest: true, signal });
      },
      {
        every: DAY_MS,
        at: (after) =>
          nextDailyHour(app.config.alerts.timeZone, app.config.alerts.digestHour, after),
      },
    );
  },
  { name: 'alert-jobs', dependencies: ['jobs', 'mail'] },
);
