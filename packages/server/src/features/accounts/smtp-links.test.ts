import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_LIMITS, post, signUpBody } from '../../../test/accounts';
import { createTestApp, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import { parseMail, tokenFromLink, type SentMail } from '../../../test/outbox';
import { startSmtpInbox, type SmtpInbox } from '../../../test/support/smtp-inbox';

describe(`account links delivered over SMTP (${TEST_ENGINE})`, () => {
  const inbox: SentMail[] = [];
  let smtp: SmtpInbox;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpInbox(async (raw) => {
      inbox.push(await parseMail(raw));
    });
    t = await createTestApp({ ...GENEROUS_LIMITS, SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const lastTo = async (address: string) => {
    await t.app.mailer.flush();
    const mail = inbox.filter((m) => m.to === address).at(-1);
    if (!mail) throw new Error(`no SMTP mail to ${address}`);
    return mail;
  };

  it('the verification and reset links of received mails work', async () => {
    const body = signUpBody();
    await post(t, '/api/auth/signup', body);
    const verifyToken = tokenFromLink(await lastTo(body.email), 'verify-email');
    expect((await post(t, '/api/auth/verify-email', { token: verifyToken })).statusCode).toBe(200);

    await post(t, '/api/auth/forgot-password', { email: body.email });
    const resetToken = tokenFromLink(await lastTo(body.email), 'reset-password');
    const reset = await post(t, `/api/auth/reset-password/${resetToken}`, {
      password: 'Via-smtp-1',
    });
    expect(reset.statusCode).toBe(200);
    const signIn = await post(t, '/api/auth/signin', { email: body.email, password: 'Via-smtp-1' });
    expect(signIn.statusCode).toBe(200);
  });
});
