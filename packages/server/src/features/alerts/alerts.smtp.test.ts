import { randomUUID } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '@campus-books/common/call-route';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import { routeCaller } from '../../../test/api-caller';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { createListingAs, listingBody } from '../../../test/listing-fixtures';
import { startSmtpInbox, type SmtpInbox } from '../../../test/support/smtp-inbox';
import { composeMail } from './alerts.delivery';
import { readUnsubscribeToken } from './unsubscribe-token';

interface Received {
  to: string;
  subject: string;
  text: string;
  listUnsubscribe: string;
  listUnsubscribePost: string;
}

describe(`alert and saved-listing mails over a real SMTP conversation (${TEST_ENGINE})`, () => {
  const inbox: Received[] = [];
  let smtp: SmtpInbox;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpInbox(async (raw) => {
      const parsed = await simpleParser(raw);
      const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
      const header = (name: string) => {
        const line = parsed.headerLines.find((h) => h.key === name)?.line ?? '';
        return line
          .slice(line.indexOf(':') + 1)
          .replace(/\s+/g, ' ')
          .trim();
      };
      inbox.push({
        to: to?.value[0]?.address ?? '',
        subject: parsed.subject ?? '',
        text: parsed.text ?? '',
        listUnsubscribe: header('list-unsubscribe'),
        listUnsubscribePost: header('list-unsubscribe-post'),
      });
    });
    t = await createTestApp({ ...GENEROUS_LIMITS, SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('delivers the match with its one-click unsubscribe, which works; the next match sends nothing', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/alerts/create',
      headers: { cookie: buyer.cookie },
      payload: { searchTerm: 'linear algebra' },
    });
    expect(created.statusCode).toBe(201);
    await createListingAs(t, seller, { name: 'Linear Algebra Done Right' });
    await t.app.jobs.runDue();

    const mails = inbox.filter((m) => m.to === buyer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Listed: Linear Algebra Done Right');
    expect(mails[0]!.listUnsubscribePost).toBe('List-Unsubscribe=One-Click');
    const url = new URL(/^<([^>]+)>$/.exec(mails[0]!.listUnsubscribe)![1]!);
    const click = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(click.statusCode).toBe(200);

    await createListingAs(t, seller, { name: 'Linear Algebra, 4th edition' });
    await t.app.jobs.runDue();
    expect(inbox.filter((m) => m.to === buyer.email)).toHaveLength(1);
  });

  /** The path and query of a mail's List-Unsubscribe URL. */
  const unsubscribeUrl = (mail: Received) => {
    const url = new URL(/^<([^>]+)>$/.exec(mail.listUnsubscribe)![1]!);
    return `${url.pathname}${url.search}`;
  };

  it('a GET on the unsubscribe URL shows a page that asks first, never a JSON 404', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    await t.app.inject({
      method: 'POST',
      url: '/api/alerts/create',
      headers: { cookie: buyer.cookie },
      payload: { searchTerm: 'microeconomics' },
    });
    await createListingAs(t, seller, { name: 'Intermediate Microeconomics' });
    await t.app.jobs.runDue();
    const [mail] = inbox.filter((m) => m.to === buyer.email);
    const opened = await t.app.inject({ url: unsubscribeUrl(mail!) });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toMatch(/^text\/html/);
    expect(opened.body).toContain('the alert this mail came from');
    expect(opened.body).toMatch(/<form method="post" action="\/api\/alerts\/unsubscribe\?token=/);
    expect(opened.body).toContain('<button type="submit">Unsubscribe</button>');
    // Opening it stopped nothing (mail scanners fetch links).
    const alerts = await t.app.inject({
      url: '/api/alerts/get',
      headers: { cookie: buyer.cookie },
    });
    expect(alerts.json()).toHaveLength(1);

    // The page's button: a form post that answers a page.
    const pressed = await t.app.inject({
      method: 'POST',
      url: unsubscribeUrl(mail!),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'confirm=page',
    });
    expect(pressed.statusCode).toBe(200);
    expect(pressed.headers['content-type']).toMatch(/^text\/html/);
    expect(pressed.body).toContain('You will get no more mails for this alert');
    const after = await t.app.inject({ url: '/api/alerts/get', headers: { cookie: buyer.cookie } });
    expect(after.json()).toEqual([]);

    const broken = await t.app.inject({ url: '/api/alerts/unsubscribe?token=nonsense' });
    expect(broken.statusCode).toBe(400);
    expect(broken.headers['content-type']).toMatch(/^text\/html/);
    expect(broken.body).toContain('This unsubscribe link is not valid or has expired');
  });

  it('saved-listing mails carry a one-click unsubscribe that stops them (the listing stays saved)', async () => {
    const seller = await createUser(t);
    const saver = await createUser(t);
    const listing = await createListingAs(t, seller, { name: 'Principles of Accounting' });
    const save = (id: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/saved/add/${id}`,
        headers: { cookie: saver.cookie },
      });
    expect((await save(listing._id)).statusCode).toBe(200);
    const cheaper = await t.app.inject({
      method: 'POST',
      url: `/api/listing/update/${listing._id}`,
      headers: { cookie: seller.cookie },
      payload: listingBody({ name: listing.name, regularPrice: 12, imageUrls: listing.imageUrls }),
    });
    expect(cheaper.statusCode).toBe(200);
    await t.app.jobs.runDue();
    const mails = inbox.filter((m) => m.to === saver.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('News of a listing you saved');
    expect(mails[0]!.listUnsubscribePost).toBe('List-Unsubscribe=One-Click');
    expect(mails[0]!.text).toContain('Stop mails about your saved listings');

    const opened = await t.app.inject({ url: unsubscribeUrl(mails[0]!) });
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain(
      'We will stop mailing you about your saved listings (price drops and sales).',
    );
    const click = await t.app.inject({
      method: 'POST',
      url: unsubscribeUrl(mails[0]!),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(click.statusCode).toBe(200);
    expect(click.json()).toMatchObject({
      success: true,
      message: 'You will get no more mails about your saved listings',
    });
    const setting = await t.app.inject({
      url: '/api/saved/mails',
      headers: { cookie: saver.cookie },
    });
    expect(setting.json()).toEqual({ savedListingMails: false });

    // The sale sends nothing now; the listing is still saved.
    const sold = await t.app.inject({
      method: 'POST',
      url: `/api/listing/mark-as-sold/${listing._id}`,
      headers: { cookie: seller.cookie },
    });
    expect(sold.statusCode).toBe(200);
    await t.app.jobs.runDue();
    expect(inbox.filter((m) => m.to === saver.email)).toHaveLength(1);
    const saved = dataOf(await routeCaller(() => t)('GET /api/saved/get', { as: saver }));
    expect(saved.map((l) => l._id)).toEqual([listing._id]);

    // Turned back on from the Saved page: the next news is mailed again.
    const on = await t.app.inject({
      method: 'POST',
      url: '/api/saved/mails',
      headers: { cookie: saver.cookie },
      payload: { savedListingMails: true },
    });
    expect(on.statusCode).toBe(200);
    const other = await createListingAs(t, seller, { name: 'Managerial Accounting' });
    await save(other._id);
    await t.app.inject({
      method: 'POST',
      url: `/api/listing/mark-as-sold/${other._id}`,
      headers: { cookie: seller.cookie },
    });
    await t.app.jobs.runDue();
    expect(inbox.filter((m) => m.to === saver.email)).toHaveLength(2);
  });

  it('a mail with matches and saved-listing news: its one-click stops both, its text links one each', () => {
    const row = (event: string, alertId: string | null) => ({
      id: randomUUID(),
      user_id: 'a9b0c1d2-0000-4000-8000-000000000001',
      alert_id: alertId,
      event,
      email: 'mixed@richmond.edu',
      listing_id: randomUUID(),
      name: 'A Book',
      regular_price: '10',
      condition: 'good',
      subject: null,
      course_number: '101',
      image_urls: [],
      status: 'active' as const,
      saved_listing_mails: true,
    });
    const alertId = randomUUID();
    const now = new Date();
    const mail = composeMail(t.app.config, [row('alert', alertId), row('sold', null)], now);
    const secret = t.config.sessionSecret;
    const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
    const header = /^<([^>]+)>$/.exec(mail.headers['List-Unsubscribe']!)![1]!;
    expect(readUnsubscribeToken(secret, tokenOf(header), now)).toMatchObject({
      alertIds: [alertId],
      savedListings: true,
    });
    const link = (label: string) =>
      new RegExp(`^${label}: (\\S+)$`, 'm').exec(mail.text)?.[1] ?? '';
    expect(readUnsubscribeToken(secret, tokenOf(link('Stop this alert')), now)).toMatchObject({
      alertIds: [alertId],
      savedListings: false,
    });
    expect(
      readUnsubscribeToken(secret, tokenOf(link('Stop mails about your saved listings')), now),
    ).toMatchObject({ alertIds: [], savedListings: true });
  });
});
