import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { post, signUpBody } from '../../test/accounts';
import { createTestApp, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { lastMailTo, parseMail, readOutbox, tokenFromLink } from '../../test/outbox';
import { startSmtpInbox, type SmtpInbox } from '../../test/support/smtp-inbox';
import { MAIL_TEXT_WRAP_STYLE } from './mail';

const mail = {
  to: 'reader@richmond.edu',
  subject: 'Hello from the tests',
  text: 'Plain words and a link https://example.edu/verify-email/abc',
  html: '<p>Plain words</p>',
};

describe(`mail without SMTP_URL: the outbox (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('writes each mail as a real .eml file in DATA_DIR/outbox', async () => {
    await t.app.mailer.send(mail);
    const files = await readdir(path.join(t.dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const [written] = await readOutbox(t);
    expect(written).toMatchObject({
      to: mail.to,
      from: 'no-reply@localhost',
      subject: mail.subject,
    });
    expect(written!.text.trim()).toBe(mail.text);
    expect(written!.html).toContain('<p>Plain words</p>');
  });

  it("wraps what a student typed: a 2,000-character word stays inside the reader's window", async () => {
    const word = 'x'.repeat(2000);
    await t.app.mailer.send({ ...mail, subject: 'Long word', html: `<p>${word}</p>` });
    const written = (await readOutbox(t)).find((m) => m.subject === 'Long word');
    const container = /<div style="([^"]*)">\s*<p>(x+)<\/p>/.exec(written!.html);
    expect(container, 'the body sits in a styled container').not.toBeNull();
    expect(container![1]).toContain(MAIL_TEXT_WRAP_STYLE);
    expect(container![1]).toContain('overflow-wrap: anywhere');
    expect(container![1]).toContain('word-break: break-word');
    expect(container![2]).toHaveLength(2000);
  });

  it('logs each link of a mail on a line of its own, whole, though the .eml splits it', async () => {
    const logged = vi.spyOn(t.app.log, 'info');
    try {
      const body = signUpBody({ email: 'newcomer@richmond.edu' });
      expect((await post(t, '/api/auth/signup', body)).statusCode).toBe(201);
      await t.app.mailer.flush();
      const verification = await lastMailTo(t, body.email);
      const link = `${t.config.publicUrl}/verify-email/${tokenFromLink(verification, 'verify-email')}`;
      const file = (await readdir(path.join(t.dataDir, 'outbox'))).sort().at(-1)!;
      const raw = await readFile(path.join(t.dataDir, 'outbox', file), 'utf8');
      expect(raw, 'the .eml breaks the long link (quoted-printable)').not.toContain(link);
      const lines = logged.mock.calls.map(([, message]) => message);
      expect(lines).toContainEqual(`e-mail link: ${link}`);

      await t.app.mailer.send({
        ...mail,
        subject: 'Two links',
        text: `Reset: ${link}.\n\nOr (https://example.edu/help), then https://example.edu/a?b=1&c=2`,
      });
      const links = logged.mock.calls
        .filter(([fields]) => (fields as { subject?: string }).subject === 'Two links')
        .map(([, message]) => message)
        .filter((m) => String(m).startsWith('e-mail link: '));
      expect(links).toEqual([
        `e-mail link: ${link}`,
        'e-mail link: https://example.edu/help',
        'e-mail link: https://example.edu/a?b=1&c=2',
      ]);
    } finally {
      logged.mockRestore();
    }
  });

  it('keeps background mails in sending order and flush waits for them', async () => {
    for (const n of [1, 2, 3]) t.app.mailer.sendInBackground({ ...mail, subject: `n${n}` });
    await t.app.mailer.flush();
    const subjects = (await readOutbox(t)).map((m) => m.subject);
    expect(subjects.slice(-3)).toEqual(['n1', 'n2', 'n3']);
  });

  it('composes a mail only after the caller has answered; flush waits for it, and no mail is none', async () => {
    const start = (await readOutbox(t)).length;
    let composed = 0;
    t.app.mailer.composeInBackground(async () => {
      composed += 1;
      return { ...mail, subject: 'Composed after' };
    });
    t.app.mailer.composeInBackground(async () => {
      composed += 1;
      return null;
    });
    expect(composed).toBe(0); // not one statement of it ran in the caller's turn
    const subjects = (await readOutbox(t)).map((m) => m.subject); // flushes first
    expect(composed).toBe(2);
    expect(subjects.at(-1)).toBe('Composed after');
    expect(subjects).toHaveLength(start + 1);
  });
});

describe(`mail with SMTP_URL: a real SMTP conversation (${TEST_ENGINE})`, () => {
  const received: { envelopeTo: string[]; raw: Buffer }[] = [];
  let smtp: SmtpInbox;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpInbox((raw, envelopeTo) => {
      received.push({ envelopeTo, raw });
    });
    t = await createTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Campus Books <books@richmond.edu>',
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('delivers the mail to the SMTP server, not to the outbox', async () => {
    await t.app.mailer.send(mail);
    expect(received).toHaveLength(1);
    expect(received[0]!.envelopeTo).toEqual([mail.to]);
    const parsed = await parseMail(received[0]!.raw);
    expect(parsed).toMatchObject({
      to: mail.to,
      from: 'books@richmond.edu',
      subject: mail.subject,
    });
    expect(parsed.text.trim()).toBe(mail.text);
    expect(await readOutbox(t)).toEqual([]);
  });
});

describe(`mail to an unreachable SMTP server (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    // Port 1 on loopback refuses connections.
    t = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
  });
  afterAll(() => t.close());

  it('rejects send(), and a background send only logs the failure', async () => {
    await expect(t.app.mailer.send(mail)).rejects.toThrow();
    t.app.mailer.sendInBackground(mail);
    await expect(t.app.mailer.flush()).resolves.toBeUndefined();
  });
});
