import { webPaths } from '@campus-books/common/paths';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { meetupCalendar, spotOf } from './meetup-calendar';
import { findMeetupForMail } from './meetups.repository';
import { MEETUP_MAIL_JOB, type MeetupMailPayload } from './meetups.service';

/**
 * The meetup mails (one-off jobs): when a meetup is accepted, both students get its calendar entry
 * (`.ics` attached); an hour before (MEETUP_REMINDER_MINUTES), a reminder. A meetup that is no
 * longer accepted, or an account deleted since, gets nothing.
 */
export default fp(
  async function meetupMailsPlugin(app: FastifyInstance) {
    const when = new Intl.DateTimeFormat('en-US', {
      dateStyle: 'full',
      timeStyle: 'short',
      timeZone: app.config.alerts.timeZone,
    });
    app.jobs.register(MEETUP_MAIL_JOB, async ({ payload }) => {
      const { meetupId, kind } = payload as MeetupMailPayload;
      const meetup = await findMeetupForMail(app.database.db, meetupId);
      if (!meetup || meetup.status !== 'accepted') return;
      const spot = spotOf(meetup.spot_id);
      const startsAt = new Date(meetup.starts_at);
      const link = `${app.config.publicUrl}${webPaths.meetups.href()}`;
      const calendar = meetupCalendar({
        id: meetup.id,
        spotId: meetup.spot_id,
        startsAt,
        listingName: meetup.listing_name,
        link,
        domain: new URL(app.config.publicUrl).hostname,
      });
      const sides = [
        { email: meetup.seller_email, other: meetup.buyer_username },
        { email: meetup.buyer_email, other: meetup.seller_username },
      ];
      for (const side of sides) {
        if (!side.email) continue;
        const lines = [
          `${kind === 'accepted' ? 'Your meetup is set' : 'Your meetup is in an hour'}: ${when.format(startsAt)}`,
          `Where: ${spot.name}, ${spot.place}${spot.note ? ` (${spot.note})` : ''}`,
          `With: ${side.other ?? 'a deleted account'}, about "${meetup.listing_name}"`,
          '',
          `Your meetups: ${link}`,
        ];
        await app.mailer.send({
          to: side.email,
          subject:
            kind === 'accepted'
              ? `Meetup set: "${meetup.listing_name}" at ${spot.name}`
              : `Reminder: meetup at ${spot.name} in an hour`,
          text: lines.join('\n'),
          ...(kind === 'accepted'
            ? {
                attachments: [
                  {
                    filename: 'meetup.ics',
                    content: calendar,
                    contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
                  },
                ],
              }
            : {}),
        });
      }
    });
  },
  { name: 'meetup-mails', dependencies: ['jobs'] },
);
