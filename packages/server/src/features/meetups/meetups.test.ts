import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCampus } from '@campus-books/common/active-campus';
import { dataOf, type ApiCallOptions } from '@campus-books/common/call-route';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { apiCaller, routeCaller } from '../../../test/api-caller';
import { createListingAs } from '../../../test/listing-fixtures';
import { readOutbox } from '../../../test/outbox';
import { simpleParser } from 'mailparser';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const HOUR = 60 * 60_000;
/** MEETUP_REMINDER_MINUTES here: not the default hour, so a text that says "an hour" shows. */
const REMINDER_MINUTES = 135;
const REMINDER_MS = REMINDER_MINUTES * 60_000;

const calendarEvent = (text: string) =>
  new ICAL.Event(new ICAL.Component(ICAL.parse(text) as unknown[]).getFirstSubcomponent('vevent')!);

describe(`meetups at campus spots (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let clock = new Date();
  let seller: TestUser;
  let buyer: TestUser;
  let stranger: TestUser;
  let conversationId: string;
  beforeAll(async () => {
    t = await createTestApp(
      {
        ...GENEROUS_LIMITS,
        RATE_LIMIT_CONVERSATIONS_PER_HOUR: '10000',
        RATE_LIMIT_MESSAGES_PER_MINUTE: '10000',
        MEETUP_REMINDER_MINUTES: String(REMINDER_MINUTES),
      },
      { now: () => clock },
    );
    seller = await createUser(t);
    buyer = await createUser(t);
    stranger = await createUser(t);
    const listing = await createListingAs(t, seller, { name: 'Meetup Chemistry' });
    const started = await route('POST /api/conversations', {
      as: buyer,
      body: { listingId: listing._id, text: 'Can we meet?' },
    });
    conversationId = dataOf(started).conversationId;
  });
  afterAll(() => t.close());

  // The calendar file is no JSON route of the table: it is asked as it is.
  const call = apiCaller(() => t);
  const route = routeCaller(() => t);
  const spots = activeCampus().meetupSpots;
  const spot = spots[0]!;
  const inHours = (hours: number) => new Date(clock.getTime() + hours * HOUR).toISOString();
  const suggest = (
    user: TestUser,
    body: Partial<ApiCallOptions<'POST /api/meetups'>['body']> = {},
  ) =>
    route('POST /api/meetups', {
      as: user,
      body: { conversationId, spotId: spot.id, startsAt: inHours(5), ...body },
    });
  const meetupsOf = (user: TestUser) =>
    route('GET /api/meetups', { as: user, query: { conversationId } });
  const decide = (user: TestUser, id: string, verb: 'accept' | 'decline') =>
    route(`POST /api/meetups/:id/${verb}`, { as: user, params: { id } });

  it('refuses a spot off the list, a time past or too far, and strangers', async () => {
    for (const body of [
      { spotId: 'parking-lot' },
      { startsAt: 'tomorrow' },
      { startsAt: inHours(-1) },
      { startsAt: inHours(24 * 61) },
    ]) {
      const answer = await suggest(buyer, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    expect((await suggest(stranger)).status).toBe(404);
    expect((await suggest(buyer, { conversationId: 'nope' })).status).toBe(404);
    expect((await meetupsOf(stranger)).status).toBe(404);
  });

  it('one open suggestion; the other side accepts once; both get the .ics and a reminder MEETUP_REMINDER_MINUTES before', async () => {
    const copies = await Promise.all(Array.from({ length: 10 }, () => suggest(buyer)));
    expect(copies.every((c) => c.status === 201)).toBe(true);
    const listed = dataOf(await meetupsOf(seller));
    expect(listed.meetups.filter((m) => m.status === 'proposed')).toHaveLength(1);
    const meetup = listed.meetups[0]!;
    expect(meetup).toMatchObject({ suggestedBy: 'other', spot: { id: spot.id, name: spot.name } });

    expect((await decide(buyer, meetup.id, 'accept')).status).toBe(403);
    expect((await decide(stranger, meetup.id, 'accept')).status).toBe(404);
    expect((await call(seller, 'GET', `/api/meetups/${meetup.id}/calendar.ics`)).statusCode).toBe(
      409,
    );
    const accepts = await Promise.all(
      Array.from({ length: 25 }, () => decide(seller, meetup.id, 'accept')),
    );
    expect(accepts.filter((a) => a.status === 200)).toHaveLength(1);
    expect(accepts.filter((a) => a.status === 409)).toHaveLength(24);

    const download = await call(buyer, 'GET', `/api/meetups/${meetup.id}/calendar.ics`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toMatch(/^text\/calendar/);
    expect(download.headers['content-disposition']).toContain('meetup.ics');
    const conversationLink = `${t.config.publicUrl}/messages/${conversationId}`;
    const event = calendarEvent(download.body);
    expect(event.startDate.toJSDate().toISOString()).toBe(meetup.startsAt);
    expect(event.location).toContain(spot.name);
    // Each student's entry names the other one; it leads to the conversation, not to a 404 page.
    expect(event.summary).toBe(`Book exchange with ${seller.username}: Meetup Chemistry`);
    expect(event.description).toContain(conversationLink);
    const sellers = await call(seller, 'GET', `/api/meetups/${meetup.id}/calendar.ics`);
    expect(calendarEvent(sellers.body).summary).toBe(
      `Book exchange with ${buyer.username}: Meetup Chemistry`,
    );
    // The calendar's alarm rings when the reminder mail goes.
    const alarm = event.component.getFirstSubcomponent('valarm')!;
    const trigger = alarm.getFirstPropertyValue('trigger') as ICAL.Duration;
    expect(trigger.toSeconds()).toBe(-REMINDER_MS / 1000);
    expect((await call(stranger, 'GET', `/api/meetups/${meetup.id}/calendar.ics`)).statusCode).toBe(
      404,
    );

    // The calendar entry by mail to both, at once; the reminder when the clock reaches an hour before.
    await t.app.jobs.runDue();
    const outbox = path.join(t.dataDir, 'outbox');
    await t.app.mailer.flush();
    const raw = await Promise.all(
      (await readdir(outbox)).map((f) => readFile(path.join(outbox, f))),
    );
    const set = (await Promise.all(raw.map((r) => simpleParser(r)))).filter((m) =>
      m.subject?.startsWith('Meetup set'),
    );
    expect(set.map((m) => (Array.isArray(m.to) ? '' : m.to?.value[0]?.address)).sort()).toEqual(
      [buyer.email, seller.email].sort(),
    );
    // The time as the campus's clocks show it (its time zone), not the server's.
    const campusTime = new Intl.DateTimeFormat('en-US', {
      dateStyle: 'full',
      timeStyle: 'short',
      timeZone: activeCampus().timeZone,
    }).format(new Date(meetup.startsAt));
    for (const mail of set) {
      const to = Array.isArray(mail.to) ? '' : mail.to?.value[0]?.address;
      expect(mail.text).toContain(`Your meetup is set: ${campusTime}`);
      const other = to === seller.email ? buyer : seller;
      expect(mail.text).toContain(`Your conversation: ${conversationLink}`);
      expect(mail.text).not.toContain(`${t.config.publicUrl}/meetups`);
      const attachment = mail.attachments.find((a) => a.filename === 'meetup.ics');
      expect(attachment?.contentType).toBe('text/calendar');
      const attached = calendarEvent(attachment!.content.toString());
      expect(attached.location).toContain(spot.place);
      expect(attached.summary).toBe(`Book exchange with ${other.username}: Meetup Chemistry`);
    }

    const reminders = async () =>
      (await readOutbox(t)).filter((m) => m.subject.startsWith('Reminder: meetup'));
    clock = new Date(new Date(meetup.startsAt).getTime() - REMINDER_MS - 60_000);
    await t.app.jobs.runDue();
    expect(await reminders()).toHaveLength(0);
    clock = new Date(new Date(meetup.startsAt).getTime() - REMINDER_MS + 1000);
    await t.app.jobs.runDue();
    const sent = await reminders();
    expect(sent.map((m) => m.to).sort()).toEqual([buyer.email, seller.email].sort());
    for (const mail of sent) {
      expect(mail.subject).toBe(`Reminder: meetup at ${spot.name} in 2 hours 15 minutes`);
      expect(mail.text).toContain('Your meetup is in 2 hours 15 minutes');
      expect(mail.text).not.toContain('an hour');
      expect(mail.text).toContain(`Your conversation: ${conversationLink}`);
    }
    clock = new Date();
  });

  it('sends no reminder once the meetup has begun (a job run late)', async () => {
    const startsAt = inHours(3);
    const meetup = dataOf(await suggest(buyer, { startsAt })).meetup;
    expect((await decide(seller, meetup.id, 'accept')).status).toBe(200);
    const before = (await readOutbox(t)).filter((m) => m.subject.startsWith('Reminder: meetup'));
    clock = new Date(new Date(meetup.startsAt).getTime() + 60_000);
    await t.app.jobs.runDue();
    const after = (await readOutbox(t)).filter((m) => m.subject.startsWith('Reminder: meetup'));
    expect(after).toHaveLength(before.length);
    clock = new Date();
  });

  it('a declined suggestion has no calendar entry; a new one replaces an open one', async () => {
    const first = dataOf(await suggest(seller)).meetup;
    const second = dataOf(await suggest(buyer, { spotId: spots[1]!.id })).meetup;
    expect(second.id).toBe(first.id);
    expect(second.spot.id).toBe(spots[1]!.id);
    expect((await decide(seller, second.id, 'decline')).status).toBe(200);
    expect((await decide(seller, second.id, 'accept')).status).toBe(409);
    expect((await call(buyer, 'GET', `/api/meetups/${second.id}/calendar.ics`)).statusCode).toBe(
      409,
    );
  });
});
