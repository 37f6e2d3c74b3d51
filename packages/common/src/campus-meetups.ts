// The campus's safe meetup spots (part of its configuration with campus.ts; a file of its own so
// that pages which only name the product or the schools do not load the list).

/** A public place on campus where students can exchange a book safely (the campus safety office's list). */
export interface MeetupSpot {
  /** Stable key, part of the API (a meetup names its spot by it). */
  id: string;
  name: string;
  /** Where it is, as a student would find it. */
  place: string;
  /** When it is open, as a sentence. */
  hours: string;
  note?: string;
}

/**
 * The campus's safe meetup spots: offered for a listing's pickup location and for a conversation's
 * "suggest a meetup". Edit them with the campus; a spot's `id` must not change once used.
 */
export const MEETUP_SPOTS: readonly MeetupSpot[] = [
  {
    id: 'library-lobby',
    name: 'Boatwright Library lobby',
    place: 'Boatwright Memorial Library, main entrance',
    hours: 'Mon–Thu 7:30–02:00, Fri 7:30–20:00, Sat–Sun 10:00–02:00',
    note: 'Staffed desk, lobby with cameras',
  },
  {
    id: 'commons',
    name: 'Tyler Haynes Commons',
    place: 'Tyler Haynes Commons, ground floor by the information desk',
    hours: 'Daily 7:00–24:00',
  },
  {
    id: 'police-lobby',
    name: 'Campus Police lobby',
    place: 'Special Programs Building, University Police entrance',
    hours: 'Open all day, every day',
    note: 'Safe exchange zone: lit, cameras, officers on duty',
  },
  {
    id: 'dining-hall',
    name: 'Heilman Dining Center entrance',
    place: 'Heilman Dining Center, front doors',
    hours: 'Daily 7:00–21:00',
  },
];
