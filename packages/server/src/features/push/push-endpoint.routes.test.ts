import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PUSH_MESSAGES } from '@campus-books/common/push.schemas';
import {
  createTestApp,
  createUser,
  TEST_ENGINE,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { apiCaller } from '../../../test/api-caller';
import { pushSubscriptions } from '../../db/push.schema';

/** Keys as a browser makes them; no push is sent in this file, so no stand-in decrypts them. */
function deviceKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
}

describe(`a push endpoint's host is read in its one spelling before the address rules (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let student: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    student = await createUser(t);
  });
  afterAll(() => t.close());

  const call = apiCaller(() => t);
  const rowsOf = (endpoint: string) =>
    t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));

  // (A link is printable ASCII, so a full-width or other non-ASCII spelling reaches the host rule
  // only percent-encoded or as punycode; written raw, the schema refuses it first.)
  it.each([
    'https://localhost./push/x',
    'https://localhost../push/x',
    'https://LOCALHOST/push/x',
    'https://Push.LocalHost./push/x',
    'https://ｌｏｃａｌｈｏｓｔ/push/x',
    'https://local%68ost./push/x',
    'https://%EF%BD%8C%EF%BD%8F%EF%BD%83%EF%BD%81%EF%BD%8C%EF%BD%88%EF%BD%8F%EF%BD%93%EF%BD%94./push/x',
    'https://intranet./push/x',
    'https://127.1/push/x',
    'https://0x7f.1/push/x',
    'https://0177.0.0.1/push/x',
    'https://2130706433/push/x',
    'https://127.0.0.1./push/x',
    'https://127.0.0.1../push/x',
    'https://0x7f000001/push/x',
    'https://169.254.169.254./latest/meta-data',
    'https://[::1]/push/x',
    'https://[0:0:0:0:0:0:0:1]/push/x',
    'https://[::ffff:127.0.0.1]/push/x',
    'https://[::ffff:7f00:1]/push/x',
    'https://[::127.0.0.1]/push/x',
  ])('refuses %s with the endpoint message, storing nothing', async (endpoint) => {
    const res = await call(student, 'POST', '/api/push/subscriptions', {
      endpoint,
      keys: deviceKeys(),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      message: expect.stringContaining(PUSH_MESSAGES.endpoint),
    });
    expect(await rowsOf(endpoint)).toHaveLength(0);
  });

  it('takes a push service on a public name, whatever its case or trailing dot', async () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://FCM.googleapis.com./fcm/send/def',
    ]) {
      const res = await call(student, 'POST', '/api/push/subscriptions', {
        endpoint,
        keys: deviceKeys(),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await rowsOf(endpoint)).toHaveLength(1);
    }
  });
});
