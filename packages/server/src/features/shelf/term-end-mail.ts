import { webPaths } from '@campus-books/common/paths';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config, TermEnd } from '../../config/config';
import type { Db } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { nextDailyHour } from '../../jobs/zoned-time';
import type { Mailer } from '../../plugins/mail';
import { signUnsubscribeToken } from '../alerts/unsubscribe-token';
import { deliverMail, registerMailRun } from '../notifications/deliver';
import {
  claimTermEndMail,
  findTermEndRecipients,
  markTermEndMailDelivered,
  releaseTermEndMail,
} from './term-end.repository';

export const TERM_END_JOB = 'shelf.term-end-mail';
const DAY_MS = 24 * 60 * 60_000;
/** The mail goes out in the last week of a term (TERM_END_DATES), on the first daily run in it. */
export const TERM_END_MAIL_DAYS_BEFORE = 7;
/** A term with no end listed before it is taken to start this long before its end. */
const DEFAULT_TERM_MS = 183 * DAY_MS;
const MAX_COURSES = 5;

/** The term end whose last week `now` is in, and when that term began; null outside such a week. */
export function termEndingAt(termEnds: TermEnd[], now: Date): { end: TermEnd; start: Date } | null {
  const ends = [...termEnds].sort((a, b) => a.endsAt.getTime() - b.endsAt.getTime());
  const index = ends.findIndex(
    ({ endsAt }) =>
      now <= endsAt && now.getTime() >= endsAt.getTime() - TERM_END_MAIL_DAYS_BEFORE * DAY_MS,
  );
  const end = ends[index];
  if (!end) return null;
  return {
    end,
    start: ends[index - 1]?.endsAt ?? new Date(end.endsAt.getTime() - DEFAULT_TERM_MS),
  };
}

/** What the end-of-term mail uses: the database, the mailer, the log and its settings. */
export interface TermEndMailDeps {
  db: Db;
  mailer: Pick<Mailer, 'send'>;
  log: Pick<FastifyBaseLogger, 'warn'>;
  config: Pick<Config, 'publicUrl' | 'sessionSecret' | 'trust'>;
}

interface Course {
  subject: string;
  courseNumber: string;
  students: number;
}

/**
 * The courses a student can sell into, most wanted first: those of the books they bought this term
 * or list, by the students wanting books for them (live alerts, saves of active listings).
 */
async function coursesInDemand(db: Db, userId: string, since: Date) {
  return rowsOf<Course>(
    db,
    sql`
    WITH theirs AS (
      SELECT DISTINCT l.subject, l.course_number FROM listings l
      WHERE l.subject IS NOT NULL
        AND (l.user_id = ${userId} OR (l.sold_to = ${userId} AND l.sold_at >= ${since.toISOString()}::timestamptz))
    )
    SELECT t.subject, t.course_number AS "courseNumber", count(DISTINCT w.user_id)::int AS students
    FROM theirs t
    JOIN (
      SELECT a.user_id, a.subject, a.course_number FROM alerts a WHERE NOT a.paused
      UNION ALL
      SELECT s.user_id, l.subject, l.course_number FROM saved_listings s
      JOIN listings l ON l.id = s.listing_id WHERE l.status = 'active'
    ) w ON w.subject = t.subject AND w.course_number = t.course_number AND w.user_id <> ${userId}
    GROUP BY t.subject, t.course_number
    ORDER BY students DESC, t.subject, t.course_number
    LIMIT ${MAX_COURSES}`,
  );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function termEndMail(
  config: TermEndMailDeps['config'],
  userId: string,
  courses: Course[],
  now: Date,
) {
  const base = config.publicUrl;
  const flow = `${base}${webPaths.sellMyShelf.href()}`;
  const token = signUnsubscribeToken(config.sessionSecret, userId, [], now, {
    termEndMail: true,
  });
  const stop = `${base}${webPaths.alertsUnsubscribe.href(token)}`;
  const lines = courses.map(
    (c) =>
      `${c.subject} ${c.courseNumber}: ${c.students} ${c.students === 1 ? 'student wants' : 'students want'} books`,
  );
  const intro =
    courses.length > 0
      ? 'The term is ending, and students are looking for books for courses you have books for:'
      : 'The term is ending: next term, students will look for the books of this one.';
  return {
    subject: 'Term is ending: sell your books to the students who need them',
    text: [
      intro,
      ...lines.map((l) => `- ${l}`),
      '',
      `List them all in a few minutes: ${flow}`,
      '',
      `Stop these end-of-term mails: ${stop}`,
    ].join('\n'),
    html: [
      `<p>${escapeHtml(intro)}</p>`,
      lines.length > 0 ? `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` : '',
      `<p><a href="${escapeHtml(flow)}">Sell my shelf</a>: list them all in a few minutes.</p>`,
      `<p><a href="${escapeHtml(stop)}">Stop these end-of-term mails</a></p>`,
    ].join('\n'),
    headers: {
      'List-Unsubscribe': `<${base}/api/alerts/unsubscribe?token=${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/**
 * Mails every subscribed student who bought books this term or has listings, once per term end: a
 * row of `term_end_mails_sent` is claimed before the mail goes (so two runs, on any servers, never
 * both mail), and given back when the mail fails (the next run tries again).
 */
export async function sendTermEndMails(
  { db, mailer, log, config }: TermEndMailDeps,
  now: Date,
): Promise<number> {
  const term = termEndingAt(config.trust.termEnds, now);
  if (!term) return 0;
  // The date as the campus names it (its end in UTC may be the next day's date).
  const termEnd = term.end.date;
  const students = await findTermEndRecipients(db, termEnd, term.start);
  let sent = 0;
  for (const student of students) {
    if (!(await claimTermEndMail(db, student.id, termEnd))) continue;
    try {
      const courses = await coursesInDemand(db, student.id, term.start);
      const mail = termEndMail(config, student.id, courses, now);
      const delivery = await deliverMail({ db, mailer }, student, 'term', mail, now);
      await markTermEndMailDelivered(db, student.id, termEnd);
      if (delivery === 'send') sent += 1;
    } catch (error) {
      log.warn({ err: error, userId: student.id }, 'end-of-term mail failed; retried next run');
      await releaseTermEndMail(db, student.id, termEnd);
    }
  }
  return sent;
}

/** The daily run, at ALERT_DIGEST_HOUR in CAMPUS_TIME_ZONE (one server runs it: src/jobs). */
export default fp(
  async function termEndMailPlugin(app: FastifyInstance) {
    registerMailRun(app, TERM_END_JOB, sendTermEndMails, {
      every: DAY_MS,
      // Read per slot: a campus's own zone in a many-campus installation (decision 024).
      at: (after) => nextDailyHour(app.config.alerts.timeZone, app.config.alerts.digestHour, after),
    });
  },
  { name: 'term-end-mail', dependencies: ['jobs', 'mail'] },
);
