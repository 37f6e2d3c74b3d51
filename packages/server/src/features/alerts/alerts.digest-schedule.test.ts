import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../db/platform.schema';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createListingAs } from '../../../test/listing-fixtures';
import { mailsTo } from '../../../test/outbox';
import { DIGEST_JOB } from './alerts.delivery';

// New York's clocks go forward on Sunday 14 March 2027: that day is 23 hours long.
let clock = new Date('2027-03-12T15:00:00Z');
const moveTo = (iso: string) => {
  clock = new Date(iso);
};

describe(`the daily digest at ALERT_DIGEST_HOUR in CAMPUS_TIME_ZONE (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let buyer: TestUser;
  let seller: TestUser;
  const nextDigest = async () =>
    (await t.database.db.select().from(jobs).where(eq(jobs.name, DIGEST_JOB)))[0]!.runAt;

  beforeAll(async () => {
    t = await createTestApp(
      { ...GENEROUS_LIMITS, CAMPUS_TIME_ZONE: 'America/New_York', ALERT_DIGEST_HOUR: '7' },
      { now: () => clock },
    );
    buyer = await createUser(t);
    seller = await createUser(t);
    const alert = await t.app.inject({
      method: 'POST',
      url: '/api/alerts/create',
      headers: { cookie: buyer.cookie },
      payload: { courseNumber: '377', digest: true },
    });
    expect(alert.statusCode).toBe(201);
  });
  afterAll(() => t.close());

  it('goes out at 07:00 New York time, not 24 hours after the start, and keeps the hour across summer time', async () => {
    // The first start (Friday 10:00 EST) schedules Saturday 07:00 EST.
    expect((await nextDigest()).toISOString()).toBe('2027-03-13T12:00:00.000Z');
    await createListingAs(t, seller, { courseNumber: '377', name: 'Digest One' });
    await t.app.jobs.runDue();
    moveTo('2027-03-13T11:59:59.999Z');
    await t.app.jobs.runDue();
    expect(await mailsTo(t, buyer.email)).toHaveLength(0);

    moveTo('2027-03-13T12:00:00.000Z');
    await t.app.jobs.runDue();
    expect((await mailsTo(t, buyer.email)).map((m) => m.subject)).toEqual(['Listed: Digest One']);
    // Sunday 07:00 is EDT: 23 hours later.
    expect((await nextDigest()).toISOString()).toBe('2027-03-14T11:00:00.000Z');

    await createListingAs(t, seller, { courseNumber: '377', name: 'Digest Two' });
    moveTo('2027-03-14T10:59:00.000Z');
    await t.app.jobs.runDue();
    expect(await mailsTo(t, buyer.email)).toHaveLength(1);
    moveTo('2027-03-14T11:00:00.000Z');
    await t.app.jobs.runDue();
    expect(await mailsTo(t, buyer.email)).toHaveLength(2);
    expect((await nextDigest()).toISOString()).toBe('2027-03-15T11:00:00.000Z');
  });
});
