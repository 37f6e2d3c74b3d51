import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images } from '../../src/db/schema';
import { pngImage } from '../support/test-images';
import { createUpload, headUpload, patchUpload, type TusAnswer } from '../support/tus-test-client';
import { UPLOAD_QUERY_REFUSED } from '../../src/features/uploads/uploads.routes';
import { createTestApp, createUser, TEST_ENGINE, type TestApp, type TestUser } from '../helpers';
import { checkAnswer } from './check-answer';
import { printFigure } from './security-helpers';

/**
 * An attacker names the victim's upload in a URL whose path names the attacker's own upload (query
 * string, encoded slash, dot segments, doubled slashes, case): the ownership check and tus must act
 * on the same upload, so the victim's upload is never read, written or cancelled.
 */
describe(`upload ownership through URL variants (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let attacker: TestUser;
  let victim: TestUser;
  let photo: Buffer;
  const SENT = 1000;
  let own: string;
  let theirs: string;
  let requests = 0;

  beforeAll(async () => {
    t = await createTestApp();
    attacker = await createUser(t);
    victim = await createUser(t);
    photo = await pngImage();
    const victims = await createUpload(t.app, victim.cookie, photo.length);
    theirs = victims.location!.split('/').pop()!;
    expect(
      (await patchUpload(t.app, victim.cookie, victims.location!, 0, photo.subarray(0, SENT)))
        .statusCode,
    ).toBe(204);
    const mine = await createUpload(t.app, attacker.cookie, photo.length);
    own = mine.location!.split('/').pop()!;
  });
  afterAll(async () => {
    printFigure(`upload ownership URL variants (${TEST_ENGINE})`, { requests });
    await t.close();
  });

  /** URLs whose route-visible id is the attacker's (or nothing valid) but that name the victim's. */
  const variants = () => [
    `/api/uploads/${own}?x=/${theirs}`,
    `/api/uploads/${own}?/${theirs}`,
    `/api/uploads/${own}?x=%2F${theirs}`,
    `/api/uploads/${own}%2F${theirs}`,
    `/api/uploads/${own}%2f${theirs}`,
    `/api/uploads/${own}/../${theirs}`,
    `/api/uploads/${own}/%2E%2E/${theirs}`,
    `/api/uploads/${own}%2F..%2F${theirs}`,
    `/api/uploads/${own}//${theirs}`,
    `/api/uploads//${theirs}`,
    `/api/uploads/${own}/${theirs}`,
    `/api/uploads/${own};${theirs}`,
    `/api/uploads/${theirs.toUpperCase()}`,
    `/api/uploads/${theirs}/`,
    `/api/uploads/${theirs}`,
  ];

  const tus = { 'tus-resumable': '1.0.0', cookie: '' };

  function refused(res: TusAnswer | Awaited<ReturnType<typeof t.app.inject>>, label: string) {
    requests += 1;
    expect(res.statusCode, `${label} -> ${res.statusCode} ${res.body}`).toBeGreaterThanOrEqual(400);
    checkAnswer(res as never, label);
  }

  async function expectVictimUntouched() {
    const head = await headUpload(t.app, victim.cookie, `/api/uploads/${theirs}`);
    expect(head.statusCode).toBe(200);
    expect(head.offset).toBe(SENT);
    const [row] = await t.database.db.select().from(images).where(eq(images.id, theirs));
    expect(row).toMatchObject({ ownerId: victim.id, status: 'uploading' });
    const parts = await t.app.storage.list(`tus/${theirs}/part-`);
    expect(parts.map((p) => p.key)).toEqual([`tus/${theirs}/part-0000000000`]);
  }

  it('refuses any query string on the upload routes with a 400', async () => {
    for (const [method, url] of [
      ['POST', '/api/uploads?x=1'],
      ['HEAD', `/api/uploads/${own}?a`],
      ['PATCH', `/api/uploads/${own}?x=/${theirs}`],
      ['DELETE', `/api/uploads/${own}?x=/${theirs}`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: { ...tus, cookie: attacker.cookie, 'upload-length': '10' },
      });
      requests += 1;
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      if (method !== 'HEAD') {
        expect(res.json()).toEqual({
          success: false,
          statusCode: 400,
          message: UPLOAD_QUERY_REFUSED,
        });
      }
    }
  });

  it("never reveals the victim's upload offset by HEAD", async () => {
    for (const url of variants()) {
      const res = await t.app.inject({
        method: 'HEAD',
        url,
        headers: { ...tus, cookie: attacker.cookie },
      });
      requests += 1;
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.headers['upload-offset'], url).toBeUndefined();
    }
    await expectVictimUntouched();
  });

  it("never writes to or finishes the victim's upload by PATCH", async () => {
    for (const url of variants()) {
      // The offset the victim's upload is at, and then the rest of a valid image.
      const res = await patchUpload(t.app, attacker.cookie, url, SENT, photo.subarray(SENT));
      refused(res, `PATCH ${url}`);
    }
    await expectVictimUntouched();
  });

  it("never cancels the victim's upload by DELETE", async () => {
    for (const url of variants()) {
      const res = await t.app.inject({
        method: 'DELETE',
        url,
        headers: { ...tus, cookie: attacker.cookie },
      });
      refused(res, `DELETE ${url}`);
    }
    await expectVictimUntouched();
  });

  it('still lets the owner finish the upload by its plain URL', async () => {
    const res = await patchUpload(
      t.app,
      victim.cookie,
      `/api/uploads/${theirs}`,
      SENT,
      photo.subarray(SENT),
    );
    expect(res.statusCode).toBe(200);
    // The attacker's own upload is still usable by its plain URL too.
    expect((await headUpload(t.app, attacker.cookie, `/api/uploads/${own}`)).statusCode).toBe(200);
  });
});
