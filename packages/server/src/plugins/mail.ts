import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe (RFC 8058). */
  headers?: Record<string, string>;
  /** Files sent with the mail (a meetup's calendar entry). */
  attachments?: { filename: string; content: string; contentType: string }[];
}

export interface Mailer {
  /** Sends now; rejects when the mail could not be delivered or written. */
  send(mail: Mail): Promise<void>;
  /**
   * Sends without making the caller wait; a failure is logged. Account routes use it so their
   * answer time does not depend on whether a mail went out (that would reveal which accounts exist).
   */
  sendInBackground(mail: Mail): void;
  /**
   * Like sendInBackground, for work that decides whether there is a mail at all (a look-up, a
   * token's row): `compose` runs after the caller has answered, and its mail, if any, is sent. So a
   * request that must not reveal whether an account exists answers before doing anything about it.
   */
  composeInBackground(compose: () => Promise<Mail | null>): void;
  /** Resolves once every background mail has been handed over (shutdown, tests). */
  flush(): Promise<void>;
  /** Mails handed over and failed since start, and background mails not yet handed over (metrics). */
  readonly stats: { sent: number; failed: number; readonly pending: number };
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/**
 * Every HTML mail's body sits in one container that wraps what a student typed (a 2,000-character
 * word, a long link in a title) inside the reader's window instead of widening the mail.
 */
export const MAIL_TEXT_WRAP_STYLE = 'word-break: break-word; overflow-wrap: anywhere;';

function wrapMailHtml(html: string): string {
  return `<div style="${MAIL_TEXT_WRAP_STYLE} max-width: 100%;">\n${html}\n</div>`;
}

/**
 * The web links of a mail's text (verification, reset, unsubscribe…) as they were written, before
 * the .eml's encoding splits a long one across lines. A sentence's closing mark is not part of it.
 */
export function linksOf(text: string): string[] {
  const links = (text.match(/https?:\/\/[^\s<>"]+/g) ?? []).map((link) =>
    link.replace(/[.,;:!?)\]'’]+$/, ''),
  );
  return [...new Set(links)];
}

let outboxSequence = 0;

/** Names sort in sending order, even for two mails written in the same millisecond. */
function outboxFileName(): string {
  outboxSequence += 1;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return `${stamp}-${String(outboxSequence).padStart(6, '0')}-${randomUUID().slice(0, 8)}.eml`;
}

/** Mail over SMTP when SMTP_URL is set; otherwise each mail becomes a `.eml` file in DATA_DIR/outbox. */
export default fp(
  async function mailPlugin(app: FastifyInstance) {
    const { smtpUrl, dataDir, env } = app.config;
    const outbox = path.join(dataDir, 'outbox');
    const transport: Transporter = smtpUrl
      ? nodemailer.createTransport(smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    const pending = new Set<Promise<void>>();

    const stats = {
      sent: 0,
      failed: 0,
      get pending() {
        return pending.size;
      },
    };

    async function send(mail: Mail): Promise<void> {
      try {
        await deliver(mail);
        stats.sent += 1;
      } catch (error) {
        stats.failed += 1;
        throw error;
      }
    }

    async function deliver(mail: Mail): Promise<void> {
      // Named before any await, so file names follow the order of the calls.
      const file = smtpUrl ? undefined : path.join(outbox, outboxFileName());
      const info = await transport.sendMail({
        // Read at each mail: the sender of the campus it is sent for (decision 024).
        from: app.config.mailFrom,
        ...mail,
        ...(mail.html === undefined ? {} : { html: wrapMailHtml(mail.html) }),
      });
      if (!file) {
        app.log.info({ to: mail.to, subject: mail.subject }, 'e-mail sent');
        return;
      }
      await mkdir(outbox, { recursive: true });
      // Written aside, then renamed: a reader of the outbox never sees half a mail.
      await writeFile(`${file}.part`, info.message as Buffer);
      await rename(`${file}.part`, file);
      app.log.info({ to: mail.to, subject: mail.subject, file }, 'e-mail written to the outbox');
      // A developer without SMTP opens the verification or reset link from the log: one line each,
      // whole. In development a warning (the mail was not sent), so a terminal, which shows only
      // warnings, shows it too; never in production, where a log collector is no place for a reset link.
      if (env !== 'production') {
        const log = env === 'development' ? app.log.warn.bind(app.log) : app.log.info.bind(app.log);
        for (const link of linksOf(mail.text)) {
          log({ to: mail.to, subject: mail.subject, link }, `e-mail link: ${link}`);
        }
      }
    }

    const mailer: Mailer = {
      send,
      sendInBackground(mail) {
        const task = send(mail)
          .catch((error: unknown) => {
            app.log.error({ err: error, to: mail.to, subject: mail.subject }, 'e-mail failed');
          })
          .finally(() => pending.delete(task));
        pending.add(task);
      },
      composeInBackground(compose) {
        // setImmediate: not one statement of it runs before the caller's answer is on its way.
        const task = new Promise<Mail | null>((resolve, reject) =>
          setImmediate(() => compose().then(resolve, reject)),
        )
          .then((mail) => (mail ? send(mail) : undefined))
          .catch((error: unknown) => {
            app.log.error({ err: error }, 'a mail composed after the answer failed');
          })
          .finally(() => pending.delete(task));
        pending.add(task);
      },
      async flush() {
        while (pending.size > 0) await Promise.all(pending);
      },
      stats,
    };

    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => {
      await mailer.flush();
      transport.close();
    });
  },
  { name: 'mail' },
);
