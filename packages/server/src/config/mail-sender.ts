import type { CampusConfig } from '@campus-books/common/campus-config';

/** The address of a sender ("Name <a@b>" or "a@b"). */
export function addressOfSender(sender: string): string {
  return (/<([^>]+)>/.exec(sender)?.[1] ?? sender).trim();
}

/** A sender as a From header takes it: the name quoted (RFC 5322), then the address. */
export function senderOf(name: string, address: string): string {
  return `"${name.replace(/[\\"]/g, '\\$&')}" <${address}>`;
}

/**
 * A campus's sender: its file's `mail.from` (name, address), each part left out taken from the
 * campus's name and `fallback`'s address (MAIL_FROM).
 */
export function campusSender(campus: CampusConfig, fallback: string): string {
  return senderOf(
    campus.mail?.from.name ?? campus.name,
    campus.mail?.from.address ?? addressOfSender(fallback),
  );
}
