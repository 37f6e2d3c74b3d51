import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Meetup } from '@campus-books/common/meetup.schemas';
import { MEETUP_SPOTS } from '@campus-books/common/campus-meetups';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { apiCaller } from '../../../test/api-caller';
import { createListingAs } from '../../../test/listing-fixtures';
import { readOutbox } from '../../../test/outbox';
import { simpleParser } from 'mailparser';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const HOUR = 60 * 60_000;

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
      },
      { now: () => clock },
    );
    seller = await createUser(t);
    buyer = await createUser(t);
    stranger = await createUser(t);
    const listing = await createListingAs(t, seller, { name: 'Meetup Chemistry' });
    const started = await call(buyer, 'POST', '/api/conversations', {
      listingId: listing._id,
      text: 'Can we meet?',
    });
    conversationId = (started.json() as { conversationId: string }).conversationId;
  });
  afterAll(() => t.close());

  const call = apiCaller(() => t);
  const spot = MEETUP_SPOTS[0]!;
  const inHours = (hours: number) => new Date(clock.getTime() + hours * HOUR).toISOString();
  const suggest = (user: TestUser, body: Record<string, unknown> = {}) =>
    call(user, 'POST', '/api/meetups', {
      conversationId,
      spotId: spot.id,
      startsAt: inHours(5),
      ...body,
    });

  it('refuses a spot off the list, a time past or too far, and strangers', async () => {
    for (const body of [
      { spotId: 'parking-lot' },
      { startsAt: 'tomorrow' },
      { startsAt: inHours(-1) },
      { startsAt: inHours(24 * 61) },
    ]) {
      const answer = await suggest(buyer, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await suggest(stranger)).statusCode).toBe(404);
    expect((await suggest(buyer, { conversationId: 'nope' })).statusCode).toBe(404);
    expect(
      (await call(stranger, 'GET', `/api/meetups?conversationId=${conversationId}`)).statusCode,
    ).toBe(404);
  });

  it('one open suggestion; the other side accepts once; both get the .ics and a reminder an hour before', async () => {
    const copies = await Promise.all(Array.from({ length: 10 }, () => suggest(buyer)));
    expect(copies.every((c) => c.statusCode === 201)).toBe(true);
    const listed = (
      await call(seller, 'GET', `/api/meetups?conversationId=${conversationId}`)
    ).json() as {
      meetups: Meetup[];
    };
    expect(listed.meetups.filter((m) => m.status === 'proposed')).toHaveLength(1);
    const meetup = listed.meetups[0]!;
    expect(meetup).toMatchObject({ suggestedBy: 'other', spot: { id: spot.id, name: spot.name } });

    expect((await call(buyer, 'POST', `/api/meetups/${meetup.id}/accept`)).statusCode).toBe(403);
    expect((await call(stranger, 'POST', `/api/meetups/${meetup.id}/accept`)).statusCode).toBe(404);
    expect((await call(seller, 'GET', `/api/meetups/${meetup.id}/calendar.ics`)).statusCode).toBe(
      409,
    );
    const accepts = await Promise.all(
      Array.from({ length: 25 }, () => call(seller, 'POST', `/api/meetups/${meetup.id}/accept`)),
    );
    expect(accepts.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(accepts.filter((a) => a.statusCode === 409)).toHaveLength(24);

    const download = await call(buyer, 'GET', `/api/meetups/${meetup.id}/calendar.ics`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toMatch(/^text\/calendar/);
    expect(download.headers['content-disposition']).toContain('meetup.ics');
    const event = new ICAL.Event(
      new ICAL.Component(ICAL.parse(download.body) as unknown[]).getFirstSubcomponent('vevent')!,
    );
    expect(event.startDate.toJSDate().toISOString()).toBe(meetup.startsAt);
    expect(event.location).toContain(spot.name);
    expect(event.summary).toContain('Meetup Chemistry');
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
    const attachment = set[0]!.attachments.find((a) => a.filename === 'meetup.ics');
    expect(attachment?.contentType).toBe('text/calendar');
    const attached = new ICAL.Component(ICAL.parse(attachment!.content.toString()) as unknown[]);
    expect(attached.getFirstSubcomponent('vevent')?.getFirstPropertyValue('location')).toContain(
      spot.place,
    );

    const reminders = async () =>
      (await readOutbox(t)).filter((m) => m.subject.startsWith('Reminder: meetup'));
    clock = new Date(new Date(meetup.startsAt).getTime() - HOUR - 60_000);
    await t.app.jobs.runDue();
    expect(await reminders()).toHaveLength(0);
    clock = new Date(new Date(meetup.startsAt).getTime() - HOUR + 1000);
    await t.app.jobs.runDue();
    expect((await reminders()).map((m) => m.to).sort()).toEqual([buyer.email, seller.email].sort());
    clock = new Date();
  });

  it('a declined suggestion has no calendar entry; a new one replaces an open one', async () => {
    const first = ((await suggest(seller)).json() as { meetup: Meetup }).meetup;
    const second = (
      (await suggest(buyer, { spotId: MEETUP_SPOTS[1]!.id })).json() as { meetup: Meetup }
    ).meetup;
    expect(second.id).toBe(first.id);
    expect(second.spot.id).toBe(MEETUP_SPOTS[1]!.id);
    expect((await call(seller, 'POST', `/api/meetups/${second.id}/decline`)).statusCode).toBe(200);
    expect((await call(seller, 'POST', `/api/meetups/${second.id}/accept`)).statusCode).toBe(409);
    expect((await call(buyer, 'GET', `/api/meetups/${second.id}/calendar.ics`)).statusCode).toBe(
      409,
    );
  });
});
