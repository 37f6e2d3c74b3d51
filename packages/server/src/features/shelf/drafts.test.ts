import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { dataOf } from '@campus-books/common/call-route';
import { listings } from '../../db/schema';
import { images } from '../../db/schema';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { routeCaller } from '../../../test/api-caller';
import { createUploadedImage } from '../../../test/support/test-uploaded-image';
import { imageIdFromUrl } from '@campus-books/common/images';

const bookFields = (name: string) => ({
  isbn: '9780131103627',
  name,
  subject: 'ECON',
  courseNumber: '101',
  condition: 'good',
  regularPrice: 25,
});

describe(`sell my shelf: drafts and publish all (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_LISTINGS_PER_ACCOUNT: '5' });
  });
  afterAll(() => t.close());

  const save = (user: TestUser, id: string, payload: object): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: 'PUT',
      url: `/api/drafts/${id}`,
      headers: { cookie: user.cookie },
      payload,
    });
  const route = routeCaller(() => t);
  const list = async (user: TestUser) =>
    dataOf(await route('GET /api/drafts', { as: user })).drafts;
  const publish = (user: TestUser, draftIds: string[]) =>
    route('POST /api/drafts/publish', { as: user, body: { draftIds } });
  const remove = (user: TestUser, id: string) =>
    route('DELETE /api/drafts/:id', { as: user, params: { id } });

  async function draftWithPhoto(user: TestUser, name: string): Promise<string> {
    const id = randomUUID();
    const res = await save(user, id, {
      fields: bookFields(name),
      imageUrls: [await createUploadedImage(t, user.id)],
    });
    expect(res.statusCode).toBe(200);
    return id;
  }

  it("saves a draft once however often it is sent, and lists only the owner's drafts", async () => {
    const seller = await createUser(t);
    const other = await createUser(t);
    const id = randomUUID();
    const photo = await createUploadedImage(t, seller.id);
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        save(seller, id, { fields: { name: 'Intro to Economics' }, imageUrls: [photo] }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(25).fill(200));
    expect(await list(seller)).toHaveLength(1);
    expect(await list(other)).toHaveLength(0);
    // The photo is held by the draft: attached, so the unattached sweep leaves it.
    const [image] = await t.database.db
      .select()
      .from(images)
      .where(eq(images.id, imageIdFromUrl(photo)!));
    expect(image?.status).toBe('attached');

    // Another student's draft id: not found, and the draft is untouched.
    expect((await save(other, id, { fields: { name: 'Mine now' } })).statusCode).toBe(404);
    expect((await remove(other, id)).status).toBe(404);
    const publishedByOther = dataOf(await publish(other, [id]));
    expect(publishedByOther.results[0]).toMatchObject({ status: 'failed', statusCode: 404 });
    expect((await list(seller))[0]?.fields.name).toBe('Intro to Economics');
    // Someone else's photo is refused on a draft as on a listing.
    const res = await save(other, randomUUID(), { fields: {}, imageUrls: [photo] });
    expect(res.statusCode).toBe(400);

    expect((await remove(seller, id)).status).toBe(200);
    expect(await list(seller)).toHaveLength(0);
  });

  it('refuses bad input with a clear 4xx', async () => {
    const seller = await createUser(t);
    const cases: [string, object][] = [
      [randomUUID(), { fields: { regularPrice: 'twelve' } }],
      [randomUUID(), { fields: { condition: 'shiny' } }],
      [randomUUID(), { fields: { name: 'x'.repeat(500) } }],
      [randomUUID(), { fields: {}, imageUrls: ['javascript:alert(1)'] }],
      [randomUUID(), { fields: { userId: 'someone' } }],
    ];
    for (const [id, body] of cases) {
      const res = await save(seller, id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, statusCode: 400 });
    }
    expect((await save(seller, 'not-a-uuid', { fields: {} })).statusCode).toBe(404);
    expect((await publish(seller, [])).status).toBe(400);
    expect((await publish(seller, ['nope'])).status).toBe(400);
    expect((await route('GET /api/drafts')).status).toBe(401);
    expect(await list(seller)).toHaveLength(0);
  });

  it('25 publishes of three drafts at once make one listing per draft', async () => {
    const seller = await createUser(t);
    const ids = [
      await draftWithPhoto(seller, 'Principles of Economics'),
      await draftWithPhoto(seller, 'Microeconomics'),
      await draftWithPhoto(seller, 'Macroeconomics'),
    ];
    const answers = await Promise.all(Array.from({ length: 25 }, () => publish(seller, ids)));
    expect(answers.map((a) => a.status)).toEqual(Array(25).fill(200));
    const made = await t.database.db.select().from(listings).where(eq(listings.userId, seller.id));
    expect(made).toHaveLength(3);
    expect(made.map((l) => l.name).sort()).toEqual(
      ['Macroeconomics', 'Microeconomics', 'Principles of Economics'].sort(),
    );
    expect(made.every((l) => l.subject === 'ECON' && l.courseNumber === '101')).toBe(true);
    // Every answer names, per draft, that listing or that another copy is at it (never a second one).
    for (const answer of answers) {
      for (const r of dataOf(answer).results) {
        if (r.status === 'published') expect(made.map((l) => l.id)).toContain(r.listing._id);
        else expect(r.statusCode).toBe(409);
      }
    }
    expect(await list(seller)).toHaveLength(0);
    // Pressed again later: the same listings, nothing new, and the hourly count took three.
    const again = dataOf(await publish(seller, ids));
    expect(again.published).toBe(3);
    expect(
      await t.database.db.select().from(listings).where(like(listings.idempotencyKey, 'draft:%')),
    ).toHaveLength(3);
  }, 60_000);

  it('a draft that breaks a rule is reported and kept; the others are published', async () => {
    const seller = await createUser(t);
    const good = await draftWithPhoto(seller, 'Game Theory');
    const noPrice = randomUUID();
    await save(seller, noPrice, {
      fields: { name: 'Econometrics', courseNumber: '301', subject: 'ECON' },
      imageUrls: [await createUploadedImage(t, seller.id)],
    });
    const noPhoto = randomUUID();
    await save(seller, noPhoto, { fields: bookFields('Labor Economics') });
    const report = dataOf(await publish(seller, [good, noPrice, noPhoto]));
    expect(report).toMatchObject({ published: 1, failed: 2 });
    const byId = new Map(report.results.map((r) => [r.draftId, r]));
    expect(byId.get(good)?.status).toBe('published');
    expect(byId.get(noPrice)).toMatchObject({ status: 'failed', statusCode: 400 });
    expect(JSON.stringify(byId.get(noPrice))).toMatch(/regularPrice/);
    expect(byId.get(noPhoto)).toMatchObject({ status: 'failed', statusCode: 400 });
    expect((await list(seller)).map((d) => d.id).sort()).toEqual([noPrice, noPhoto].sort());

    // Fixed, it publishes on the next press.
    await save(seller, noPrice, {
      fields: { name: 'Econometrics', courseNumber: '301', subject: 'ECON', regularPrice: 40 },
      imageUrls: [await createUploadedImage(t, seller.id)],
    });
    const next = dataOf(await publish(seller, [noPrice]));
    expect(next.results[0]?.status).toBe('published');
  });

  it('the hourly listing limit counts published drafts too; the rest wait as drafts', async () => {
    const seller = await createUser(t);
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await draftWithPhoto(seller, `Volume ${i + 1}`));
    const report = dataOf(await publish(seller, ids));
    expect(report.published).toBe(5);
    const refused = report.results.find((r) => r.status === 'failed');
    expect(refused).toMatchObject({ statusCode: 429 });
    expect(await list(seller)).toHaveLength(1);
  }, 60_000);
});
