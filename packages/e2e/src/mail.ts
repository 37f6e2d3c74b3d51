import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { outboxDir } from './env';

export interface ReceivedMail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

// Outbox files never change once written: parse each one once per test worker.
const parsedFiles = new Map<string, ReceivedMail>();

async function parseMail(dir: string, file: string): Promise<ReceivedMail> {
  const cached = parsedFiles.get(file);
  if (cached) return cached;
  const parsed = await simpleParser(await readFile(path.join(dir, file)));
  const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
  const mail = {
    file,
    to: (to?.value[0]?.address ?? '').toLowerCase(),
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
  };
  parsedFiles.set(file, mail);
  return mail;
}

async function readOutbox(dir: string = outboxDir()): Promise<ReceivedMail[]> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
  // File names sort in sending order (see the server's mail plugin).
  files.sort();
  return Promise.all(files.map((file) => parseMail(dir, file)));
}

/**
 * The newest mail to `to` whose subject matches, waiting for it: the server sends account mails in
 * the background. `notIn` skips mails already seen (e.g. an earlier verification mail).
 */
export async function waitForMail(
  to: string,
  subject: RegExp,
  options: { notIn?: ReceivedMail[]; timeoutMs?: number; outbox?: string } = {},
): Promise<ReceivedMail> {
  const seen = new Set((options.notIn ?? []).map((m) => m.file));
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const mails = await mailsTo(to, options.outbox);
    const match = mails.reverse().find((m) => subject.test(m.subject) && !seen.has(m.file));
    if (match) return match;
    if (Date.now() > deadline) {
      throw new Error(`No mail to ${to} matching ${String(subject)} within the timeout`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The mails to `to` in the suite's outbox, or in `outbox` (a spec's own server's). */
export async function mailsTo(to: string, outbox?: string): Promise<ReceivedMail[]> {
  return (await readOutbox(outbox)).filter((m) => m.to === to.toLowerCase());
}

/** The first link in the mail's text whose path starts with `pathPrefix` (e.g. '/verify-email/'). */
export function linkIn(mail: ReceivedMail, pathPrefix: string): string {
  for (const candidate of mail.text.match(/https?:\/\/\S+/g) ?? []) {
    const url = new URL(candidate);
    if (url.pathname.startsWith(pathPrefix)) return url.pathname + url.search;
  }
  throw new Error(`No ${pathPrefix} link in the mail "${mail.subject}":\n${mail.text}`);
}

export const VERIFY_SUBJECT = /verify your school e-mail/i;
export const RESET_SUBJECT = /reset your .* password/i;
