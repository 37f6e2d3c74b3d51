import { createEvent } from 'ics';
import { PRODUCT_NAME } from '@campus-books/common/campus';
import { MEETUP_SPOTS, type MeetupSpot } from '@campus-books/common/campus-meetups';

/** How long a meetup's calendar entry lasts. */
const MEETUP_MINUTES = 30;

export function spotOf(id: string): MeetupSpot {
  return (
    MEETUP_SPOTS.find((spot) => spot.id === id) ?? {
      id,
      name: 'A meetup spot no longer listed',
      place: id,
      hours: '',
    }
  );
}

/** The meetup as an iCalendar file (RFC 5545), written by the `ics` library, in UTC. */
export function meetupCalendar(meetup: {
  id: string;
  spotId: string;
  startsAt: Date;
  listingName: string;
  link: string;
  domain: string;
}): string {
  const spot = spotOf(meetup.spotId);
  const { error, value } = createEvent({
    uid: `meetup-${meetup.id}@${meetup.domain}`,
    productId: `${PRODUCT_NAME}//meetups`,
    title: `Book exchange: ${meetup.listingName}`,
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
      { action: 'display', description: 'Book exchange', trigger: { hours: 1, before: true } },
    ],
  });
  if (error || !value) throw error ?? new Error('calendar entry not written');
  return value;
}
