import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SmtpInbox {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a free local port (no TLS, no login): `onMessage` receives each message's
 * raw bytes and the addresses of its envelope; the message is accepted once it has run.
 */
export async function startSmtpInbox(
  onMessage: (raw: Buffer, envelopeTo: string[]) => void | Promise<void>,
): Promise<SmtpInbox> {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
        Promise.resolve()
          .then(() => onMessage(Buffer.concat(chunks), envelopeTo))
          .then(() => callback(), callback);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
