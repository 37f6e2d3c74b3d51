import { createEvent } from 'ics';
import { activeCampus } from '@campus-books/common/active-campus';
import type { CampusConfig } from '@campus-books/common/campus-config';
import { webPaths } from '@campus-books/common/paths';

/** How long a meetup's calendar entry lasts. */
const MEETUP_MINUTES = 30;

type MeetupSpot = CampusConfig['meetupSpots'][number];

export function spotOf(id: string): MeetupSpot {
  return (
    activeCampus().meetupSpot(id) ?? {
      id,
      name: 'A meetup spot no longer listed',
      place: id,
      hours: '',
    }
  );
}

/** How a meetup's mails and calendar entry name a student whose account was deleted. */
export const DELETED_ACCOUNT_NAME = 'a deleted account';

/** The web address of the conversation a meetup was set in (its page shows the meetup). */
export function meetupConversationLink(publicUrl: string, conversationId: string): string {
  return `${publicUrl}${webPaths.conversation.href(conversationId)}`;
}

/**
 * The meetup as an iCalendar file (RFC 5545), written by the `ics` library, in UTC, as one of its
 * two students sees it: titled with the other one's name, with an alarm when the reminder mail goes.
 */
export function meetupCalendar(meetup: {
  id: string;
  spotId: string;
  startsAt: Date;
  listingName: string;
  /** The other student's name (null: the account was deleted). */
  otherName: string | null;
  /** The meetup's conversation (meetupConversationLink). */
  link: string;
  domain: string;
  /** MEETUP_REMINDER_MINUTES. */
  reminderMinutes: number;
}): string {
  const spot = spotOf(meetup.spotId);
  const { error, value } = createEvent({
    uid: `meetup-${meetup.id}@${meetup.domain}`,
    productId: `${activeCampus().productName}//meetups`,
    title: `Book exchange with ${meetup.otherName ?? DELETED_ACCOUNT_NAME}: ${meetup.listingName}`,
    description: [
      `Meet at ${spot.name} to exchange "${meetup.listingName}".`,
      spot.note ?? '',
      `Conversation: ${meetup.link}`,
    ]
      .filter(Boolean)
      .join('\n'),
    location: `${spot.name}, ${spot.place}`,
    start: meetup.startsAt.getTime(),
    startInputType: 'utc',
    startOutputType: 'utc',
    duration: { minutes: MEETUP_MINUTES },
    status: 'CONFIRMED',
    alarms: [
      {
        action: 'display',
        description: 'Book exchange',
        trigger: { minutes: meetup.reminderMinutes, before: true },
      },
    ],
  });
  if (error || !value) throw error ?? new Error('calendar entry not written');
  return value;
}
