import { activeCampus } from '@campus-books/common/active-campus';
import { webPaths } from '@campus-books/common/paths';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config/config';
import type { Db } from '../../db/database';
import { textLiteral } from '../../db/literal';
import { rowsOf } from '../../db/rows';
import { DEAL_ROLES, otherRole, type DealRole } from '../../deal/deal';
import { HUMAN_KINDS_SQL, roleColumns } from '../../deal/deal.sql';
import type { Mailer } from '../../plugins/mail';
import { signUnsubscribeToken } from '../alerts/unsubscribe-token';
import { deliverMail, registerMailRun } from '../notifications/deliver';
import { claimMessageMail, releaseMessageMail } from './conversations.repository';

export const MESSAGE_MAILS_JOB = 'conversations.message-mails';
/** Conversations quiet for longer than this are not looked at (their unread mail went long ago). */
const LOOK_BACK_MS = 7 * 24 * 60 * 60_000;
/** At most this many of the unread messages are quoted in a mail, each cut to QUOTE_MAX characters. */
const QUOTED = 5;
const QUOTE_MAX = 500;

/** What the unread-message mails use: the database, the mailer, the log and three settings. */
export interface MessageMailDeps {
  db: Db;
  mailer: Pick<Mailer, 'send'>;
  log: Pick<FastifyBaseLogger, 'warn'>;
  config: Pick<Config, 'publicUrl' | 'sessionSecret' | 'conversations'>;
}

interface Due {
  id: string;
  role: DealRole;
  user_id: string;
  other_id: string;
  email: string;
  other_username: string;
  listing_name: string;
  mailed_id: string | number;
}

/** Each side of a conversation `c` as a row: its role, its student, the other, its two marks. */
const SIDES = sql.join(
  DEAL_ROLES.map((role) => {
    const [ids, reads, mailed] = [
      roleColumns('c'),
      roleColumns('c', 'read_id'),
      roleColumns('c', 'mailed_id'),
    ];
    return sql`(${textLiteral(role)}, ${ids[role]}, ${ids[otherRole(role)]}, ${reads[role]}, ${mailed[role]})`;
  }),
  sql`, `,
);

/**
 * The sides of conversations that need a mail now: the other student wrote (a message or an
 * offer, not hidden by a suspension) and the oldest such unread event is older than the delay; no
 * block between them; the student wants these mails; and no mail about the conversation is still
 * unread (`mailed_id <= read_id`): one mail per conversation until the student reads it.
 */
function findDue({ db, config }: MessageMailDeps, now: Date): Promise<Due[]> {
  const cutoff = new Date(now.getTime() - config.conversations.messageMailDelayMs);
  const since = new Date(now.getTime() - LOOK_BACK_MS);
  return rowsOf<Due>(
    db,
    sql`SELECT c.id, s.role, s.user_id, s.other_id, u.email, o.username AS other_username,
          coalesce(l.name, c.listing_name) AS listing_name, s.mailed_id
        FROM conversations c
        CROSS JOIN LATERAL (VALUES ${SIDES}) AS s(role, user_id, other_id, read_id, mailed_id)
        JOIN users u ON u.id = s.user_id
        JOIN users o ON o.id = s.other_id
        LEFT JOIN listings l ON l.id = c.listing_id
        WHERE c.last_event_at >= ${since.toISOString()}::timestamptz
          AND c.last_event_id > s.read_id AND s.mailed_id <= s.read_id
          AND u.message_mails AND u.email_verified_at IS NOT NULL AND u.suspended_at IS NULL
          AND o.suspended_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM user_blocks b
            WHERE (b.blocker_id = s.user_id AND b.blocked_id = s.other_id)
               OR (b.blocker_id = s.other_id AND b.blocked_id = s.user_id))
          AND EXISTS (SELECT 1 FROM conversation_events e
            WHERE e.conversation_id = c.id AND e.id > s.read_id AND e.sender_id = s.other_id
              AND e.kind IN ${HUMAN_KINDS_SQL}
              AND e.created_at <= ${cutoff.toISOString()}::timestamptz)
        ORDER BY c.last_event_at
        LIMIT 500`,
  );
}

/**
 * Claims the mail of one side (once: see claimMessageMail) and answers the unread events it
 * covers, or null when another run claimed it first.
 */
async function claim(db: Db, due: Due) {
  const claimed = await claimMessageMail(db, due.id, due.role, due.mailed_id);
  if (!claimed) return null;
  const events = await rowsOf<Quoted>(
    db,
    sql`SELECT kind, body, amount, cardinality(photo_ids) AS photos FROM conversation_events
        WHERE conversation_id = ${due.id} AND id > ${claimed.readId} AND id <= ${claimed.lastEventId}
          AND sender_id = ${due.other_id} AND kind IN ${HUMAN_KINDS_SQL}
        ORDER BY id DESC LIMIT ${QUOTED}`,
  );
  return { events: events.reverse(), lastEventId: claimed.lastEventId };
}

interface Quoted {
  kind: string;
  body: string | null;
  amount: string | null;
  /** How many photos a message carries. */
  photos: number | string | null;
}

/** A photo-only message says what came, not an empty quote. */
export function photoOnlyLine(photos: number): string {
  return photos === 1 ? 'Sent a photo' : `Sent ${photos} photos`;
}

function quote(event: Quoted): string {
  const dollars = `$${Number(event.amount ?? 0)}`;
  switch (event.kind) {
    case 'offer':
      return `Offered ${dollars}`;
    case 'offer_accepted':
      return 'Accepted the offer';
    case 'offer_declined':
      return 'Declined the offer';
    default: {
      const text = event.body ?? '';
      const photos = Number(event.photos ?? 0);
      if (text === '' && photos > 0) return photoOnlyLine(photos);
      return text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text;
    }
  }
}

function messageMail(config: MessageMailDeps['config'], due: Due, events: Quoted[], now: Date) {
  const base = config.publicUrl;
  const token = signUnsubscribeToken(config.sessionSecret, due.user_id, [], now, {
    messageMails: true,
  });
  const stop = `${base}${webPaths.alertsUnsubscribe.href(token)}`;
  const thread = `${base}${webPaths.conversation.href(due.id)}`;
  return {
    subject: `New message about ${due.listing_name}`,
    text: [
      `${due.other_username} wrote to you about "${due.listing_name}":`,
      '',
      ...events.flatMap((e) =>
        quote(e)
          .split('\n')
          .map((line) => `> ${line}`),
      ),
      '',
      `Read and answer: ${thread}`,
      '',
      `You get one mail per conversation until you read it on ${activeCampus().productName}.`,
      `Stop mails about messages: ${stop}`,
    ].join('\n'),
    headers: {
      'List-Unsubscribe': `<${base}/api/alerts/unsubscribe?token=${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/**
 * Mails each student who has not read, within MESSAGE_MAIL_DELAY_MINUTES, what the other student of a
 * conversation wrote: one mail per conversation and quiet period, quoting the latest unread
 * messages; during the student's quiet hours it waits for their digest. A mail that fails gives
 * its claim back (the next run tries again).
 */
export async function sendMessageMails(deps: MessageMailDeps, now: Date): Promise<number> {
  const { db, mailer, log, config } = deps;
  let sent = 0;
  for (const due of await findDue(deps, now)) {
    const claimed = await claim(db, due);
    if (!claimed) continue;
    try {
      const mail = messageMail(config, due, claimed.events, now);
      const recipient = { id: due.user_id, email: due.email };
      if ((await deliverMail({ db, mailer }, recipient, 'messages', mail, now)) === 'send') {
        sent += 1;
      }
    } catch (error) {
      log.warn({ err: error, conversationId: due.id }, 'message mail failed; retried next run');
      await releaseMessageMail(db, due.id, due.role, {
        claimed: claimed.lastEventId,
        before: due.mailed_id,
      });
    }
  }
  return sent;
}

/** The recurring run, every MESSAGE_MAIL_CHECK_MS (one server per slot: src/jobs). */
export default fp(
  async function messageMailsPlugin(app: FastifyInstance) {
    registerMailRun(app, MESSAGE_MAILS_JOB, sendMessageMails, {
      every: app.config.conversations.messageMailCheckMs,
    });
  },
  { name: 'message-mails', dependencies: ['jobs', 'mail'] },
);
