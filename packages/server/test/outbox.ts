import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { TestApp } from './helpers';

export interface SentMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
}

/** Reads a raw RFC 5322 message the way a mail client would. */
export async function parseMail(raw: Buffer | string): Promise<SentMail> {
  const parsed: ParsedMail = await simpleParser(raw);
  const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
  return {
    to: to?.value[0]?.address ?? '',
    from: parsed.from?.value[0]?.address ?? '',
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
  };
}

/** Each mail in DATA_DIR/outbox as raw text, oldest first (after pending mails are written). */
export async function readRawOutbox(t: TestApp): Promise<string[]> {
  await t.app.mailer.flush();
  const dir = path.join(t.dataDir, 'outbox');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
  files.sort();
  return Promise.all(files.map((f) => readFile(path.join(dir, f), 'utf8')));
}

/** Every mail the app wrote to DATA_DIR/outbox, oldest first (after pending mails are written). */
export async function readOutbox(t: TestApp): Promise<SentMail[]> {
  return Promise.all((await readRawOutbox(t)).map(parseMail));
}

/** The URL a raw mail offers for one-click unsubscribe (RFC 8058); throws when it offers none. */
export function oneClickUnsubscribeUrl(raw: string): URL {
  const link = /List-Unsubscribe:\s*<([^>]+)>/.exec(raw)?.[1];
  if (!raw.includes('List-Unsubscribe-Post: List-Unsubscribe=One-Click') || !link) {
    throw new Error('the mail offers no one-click unsubscribe');
  }
  return new URL(link);
}

/**
 * One click on a raw mail's unsubscribe (RFC 8058), as a mail provider posts it: a form body, from
 * its own origin.
 */
export function clickOneClickUnsubscribe(t: TestApp, raw: string) {
  const url = oneClickUnsubscribeUrl(raw);
  return t.app.inject({
    method: 'POST',
    url: `${url.pathname}${url.search}`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://mail.example.com',
    },
    payload: 'List-Unsubscribe=One-Click',
  });
}

/** The mails sent to one address, oldest first. */
export async function mailsTo(t: TestApp, address: string): Promise<SentMail[]> {
  const all = await readOutbox(t);
  return all.filter((m) => m.to === address.toLowerCase());
}

/** The newest mail to an address; fails the test when there is none. */
export async function lastMailTo(t: TestApp, address: string): Promise<SentMail> {
  const mails = await mailsTo(t, address);
  const last = mails.at(-1);
  if (!last) throw new Error(`no mail was sent to ${address}`);
  return last;
}

/** The token of a `${PUBLIC_URL}/<page>/<token>` link in a mail's text. */
export function tokenFromLink(mail: SentMail, page: 'verify-email' | 'reset-password'): string {
  const match = new RegExp(`https?://\\S+/${page}/([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no /${page}/ link in the mail "${mail.subject}"`);
  return match[1];
}
