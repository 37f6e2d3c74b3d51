import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_LIMITS } from '../../../test/accounts';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { createListingAs } from '../../../test/listing-fixtures';
import { startSmtpInbox, type SmtpInbox } from '../../../test/support/smtp-inbox';

interface Received {
  to: string;
  subject: string;
  text: string;
  listUnsubscribe: string;
  listUnsubscribePost: string;
}

describe(`alert mails over a real SMTP conversation (${TEST_ENGINE})`, () => {
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
});
