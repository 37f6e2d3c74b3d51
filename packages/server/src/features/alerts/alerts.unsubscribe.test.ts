import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ALERT_MESSAGES } from '@campus-books/common/alert.schemas';
import { alerts } from '../../db/alerts.schema';
import { alertSuite } from '../../../test/alert-fixtures';
import { TEST_ENGINE } from '../../../test/helpers';
import {
  clickOneClickUnsubscribe,
  mailsTo,
  oneClickUnsubscribeUrl,
  readRawOutbox,
} from '../../../test/outbox';
import { signUnsubscribeToken } from './unsubscribe-token';

/** A mail's unsubscribe link (RFC 8058) stops its alert; nothing else takes a form or a foreign origin. */
describe(`alerts: one-click unsubscribe (${TEST_ENGINE})`, () => {
  const { w, createAlert, work, list } = alertSuite();

  const rawOutbox = async (address: string) =>
    (await readRawOutbox(w.t))
      .filter((r) => r.toLowerCase().includes(address.toLowerCase()))
      .at(-1)!;

  it('every alert mail carries RFC 8058 headers; one click stops the alert, again changes nothing', async () => {
    const { t, buyer } = w;
    const alert = await createAlert(buyer, { courseNumber: '560' });
    await list({ courseNumber: '560' });
    await work();
    const raw = await rawOutbox(buyer.email);
    expect(oneClickUnsubscribeUrl(raw).origin).toBe(new URL(t.config.publicUrl).origin);

    const click = () => clickOneClickUnsubscribe(t, raw);
    const first = await click();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toBe(ALERT_MESSAGES.unsubscribed);
    expect(await t.database.db.select().from(alerts).where(eq(alerts.id, alert._id))).toEqual([]);
    expect((await click()).statusCode).toBe(200);

    await list({ courseNumber: '560' });
    await work();
    expect(await mailsTo(t, buyer.email)).toHaveLength(1);
  });

  it('refuses forged and expired tokens with 400 and deletes nothing', async () => {
    const { t, seller, buyer } = w;
    const alert = await createAlert(buyer, { courseNumber: '561' });
    const secret = t.config.sessionSecret;
    const good = signUnsubscribeToken(secret, buyer.id, [alert._id], new Date());
    const forged = signUnsubscribeToken('another secret', buyer.id, [alert._id], new Date());
    const tampered = `${signUnsubscribeToken(secret, seller.id, [alert._id], new Date()).split('.')[0]}.${good.split('.')[1]}`;
    const expired = signUnsubscribeToken(secret, buyer.id, [alert._id], new Date('2020-01-01'));
    for (const token of [forged, tampered, expired, 'garbage', '']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/alerts/unsubscribe',
        payload: { token },
      });
      expect(res.statusCode, token).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        statusCode: 400,
        message: ALERT_MESSAGES.badUnsubscribe,
      });
    }
    expect(await t.database.db.select().from(alerts).where(eq(alerts.id, alert._id))).toHaveLength(
      1,
    );
    // A token names its owner: another student's token cannot stop this alert.
    const others = signUnsubscribeToken(secret, seller.id, [alert._id], new Date());
    await t.app.inject({
      method: 'POST',
      url: '/api/alerts/unsubscribe',
      payload: { token: others },
    });
    expect(await t.database.db.select().from(alerts).where(eq(alerts.id, alert._id))).toHaveLength(
      1,
    );
  });

  it('other routes still refuse form bodies and foreign origins', async () => {
    const { t, buyer } = w;
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/alerts/create',
      headers: { cookie: buyer.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'courseNumber=101',
    });
    expect(form.statusCode).toBe(415);
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/alerts/create',
      headers: { cookie: buyer.cookie, origin: 'https://evil.example' },
      payload: { courseNumber: '101' },
    });
    expect(foreign.statusCode).toBe(403);
  });
});
