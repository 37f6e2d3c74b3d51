import { activeCampus } from '@campus-books/common/active-campus';
import { createHash } from 'node:crypto';
import { webPaths } from '@campus-books/common/paths';
import { asSentence } from '@campus-books/common/display';
import {
  NOTIFICATION_KIND_LABELS,
  type NotificationKind,
} from '@campus-books/common/notification.schemas';

/**
 * The page a browser or a mail client gets when it opens a mail's unsubscribe URL
 * (`GET /api/alerts/unsubscribe?token=…`): it says what the link stops and asks first, since mail
 * scanners open links; its button posts the form to the same URL. Rendered on the server, no script.
 */

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#0f172a;background:#f8fafc}
main{max-width:36rem;margin:0 auto;padding:2rem 1rem}h1{font-size:1.5rem;margin:0 0 1rem}
button{font:inherit;font-weight:600;min-height:44px;min-width:44px;padding:.5rem 1.25rem;border:0;
border-radius:.5rem;background:#1e3a8a;color:#fff;cursor:pointer}button:focus-visible{outline:3px solid #f59e0b;
outline-offset:2px}a{color:#1e3a8a;display:inline-block;min-height:44px;line-height:44px}`;

/** The page's policy: its one inline style (by hash), no script, forms to this origin only. */
export const UNSUBSCRIBE_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} - ${escapeHtml(activeCampus().productName)}</title>
<style>${STYLE}</style>
</head>
<body><main>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body>
</html>
`;
}

/** What a link would stop. */
interface UnsubscribeAsk {
  alertCount: number;
  savedListings: boolean;
  termEndMail?: boolean;
  messageMails?: boolean;
  kinds?: NotificationKind[];
}

/** What a link stops, in words. */
function describe(scope: UnsubscribeAsk): string {
  const parts: string[] = [];
  if (scope.alertCount === 1) parts.push('the alert this mail came from');
  if (scope.alertCount > 1) parts.push(`the ${scope.alertCount} alerts this mail came from`);
  if (scope.savedListings) parts.push('your saved listings (price drops and sales)');
  if (scope.termEndMail) parts.push('the courses you can sell into at the end of a term');
  if (scope.messageMails) parts.push('the messages you have not read');
  for (const kind of scope.kinds ?? []) parts.push(NOTIFICATION_KIND_LABELS[kind].toLowerCase());
  return parts.length > 0 ? parts.join(', and ') : 'the alerts this mail came from';
}

const links = (publicUrl: string) =>
  `<p><a href="${escapeHtml(`${publicUrl}${webPaths.profileAlerts.href()}`)}">Manage your alerts</a>` +
  ` · <a href="${escapeHtml(`${publicUrl}${webPaths.saved.href()}`)}">Your saved listings</a>` +
  ` · <a href="${escapeHtml(`${publicUrl}${webPaths.notifications.href()}`)}">What reaches you</a></p>`;

/** The question: what the link stops, and a button that does it. */
export function askPage(publicUrl: string, token: string, scope: UnsubscribeAsk): string {
  const action = `/api/alerts/unsubscribe?token=${encodeURIComponent(token)}`;
  return page(
    'Unsubscribe?',
    `<p>We will stop mailing you about ${escapeHtml(describe(scope))}.</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="confirm" value="page">
<button type="submit">Unsubscribe</button>
</form>
<p>Nothing changes until you press the button.</p>
${links(publicUrl)}`,
  );
}

/** After the button: what stopped, and how to turn it back on. */
export function donePage(publicUrl: string, message: string): string {
  return page(
    'Unsubscribed',
    `<p role="status">${escapeHtml(asSentence(message))}</p>
<p>Changed your mind? Create an alert again, turn mails about saved listings back on from your
saved listings, or choose again what reaches you, kind by kind.</p>
${links(publicUrl)}`,
  );
}

/** A forged, damaged or expired link. */
export function invalidPage(publicUrl: string, message: string): string {
  return page(
    'This link does not work',
    `<p>${escapeHtml(asSentence(message))} You can still stop any mail from your account:</p>
${links(publicUrl)}`,
  );
}
