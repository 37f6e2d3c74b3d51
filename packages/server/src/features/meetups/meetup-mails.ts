import { formatMinutes } from '@campus-books/common/durations';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  DELETED_ACCOUNT_NAME,
  meetupCalendar,
  meetupConversationLink,
  spotOf,
} from './meetup-calendar';
import { kindUnsubscribe } from '../alerts/unsubscribe-token';
import { deliverMail } from '../notifications/deliver';
import { findMeetupForMail } from './meetups.repository';
import { MEETUP_MAIL_JOB, type MeetupMailPayload } from './meetups.service';

const MINUTE_MS = 60_000;

/**
 * The meetup mails (one-off jobs): when a meetup is accepted, both students get its calendar entry
 * (`.ics` attached); MEETUP_REMINDER_MINUTES before it, a reminder. Both link to the meetup's
 * conversation. A meetup that is no longer accepted, or an account deleted since, gets nothing;
 * each student's choices decide whether and when (notifications/deliver.ts).
 */
export default fp(
  async function meetupMailsPlugin(app: FastifyInstance) {
    // One formatter per time zone, read when a mail goes: a campus's own (decision 024).
    const formatters = new Map<string, Intl.DateTimeFormat>();
    const when = () => {
      const timeZone = app.config.alerts.timeZone;
      let format = formatters.get(timeZone);
      if (!format) {
        format = new Intl.DateTimeFormat('en-US', {
          dateStyle: 'full',
          timeStyle: 'short',
          timeZone,
        });
        formatters.set(timeZone, format);
      }
      return format;
    };
    const deliverDeps = { db: app.database.db, mailer: app.mailer };
    const reminderMinutes = Math.round(app.config.ratings.meetupReminderMs / MINUTE_MS);
    app.jobs.register(MEETUP_MAIL_JOB, async ({ payload, now }) => {
      const { meetupId, kind } = payload as MeetupMailPayload;
      const meetup = await findMeetupForMail(app.database.db, meetupId);
      if (!meetup || meetup.status !== 'accepted') return;
      const spot = spotOf(meetup.spot_id);
      const startsAt = new Date(meetup.starts_at);
      // What the reminder says is the time left when it goes (a run delayed says so); none once begun.
      const leftMinutes = Math.round((startsAt.getTime() - now.getTime()) / MINUTE_MS);
      if (kind === 'reminder' && leftMinutes <= 0) return;
      const lead = formatMinutes(leftMinutes);
      const link = meetupConversationLink(app.config.publicUrl, meetup.conversation_id);
      const sides = [
        { id: meetup.seller_id, email: meetup.seller_email, other: meetup.buyer_username },
        { id: meetup.buyer_id, email: meetup.buyer_email, other: meetup.seller_username },
      ];
      for (const side of sides) {
        if (!side.email || !side.id) continue;
        const stop = kindUnsubscribe(app.config, side.id, 'meetups', now);
        const lines = [
          `${kind === 'accepted' ? 'Your meetup is set' : `Your meetup is in ${lead}`}: ${when().format(startsAt)}`,
          `Where: ${spot.name}, ${spot.place}${spot.note ? ` (${spot.note})` : ''}`,
          `With: ${side.other ?? DELETED_ACCOUNT_NAME}, about "${meetup.listing_name}"`,
          '',
          `Your conversation: ${link}`,
          '',
          `Stop mails about meetups: ${stop.link}`,
        ];
        const recipient = { id: side.id, email: side.email };
        await deliverMail(
          deliverDeps,
          recipient,
          'meetups',
          {
            subject:
              kind === 'accepted'
                ? `Meetup set: "${meetup.listing_name}" at ${spot.name}`
                : `Reminder: meetup at ${spot.name} in ${lead}`,
            text: lines.join('\n'),
            headers: stop.headers,
            ...(kind === 'accepted'
              ? {
                  attachments: [
                    {
                      filename: 'meetup.ics',
                      content: meetupCalendar({
                        id: meetup.id,
                        spotId: meetup.spot_id,
                        startsAt,
                        listingName: meetup.listing_name,
                        otherName: side.other,
                        link,
                        domain: new URL(app.config.publicUrl).hostname,
                        reminderMinutes,
                      }),
                      contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
                    },
                  ],
                }
              : {}),
          },
          now,
        );
      }
    });
  },
  { name: 'meetup-mails', dependencies: ['jobs'] },
);
