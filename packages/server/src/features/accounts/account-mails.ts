import { activeCampus } from '@campus-books/common/active-campus';
import type { Mail } from '../../plugins/mail';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One short mail: paragraphs of text, then one link, in plain text and HTML alike. */
function compose(to: string, subject: string, paragraphs: string[], link?: string): Mail {
  const text = [...paragraphs, ...(link ? [link] : []), `— ${activeCampus().productName}`].join(
    '\n\n',
  );
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`] : []),
    `<p>— ${activeCampus().productName}</p>`,
  ].join('\n');
  return { to, subject, text, html };
}

export function verifyEmailMail(to: string, link: string, isNewAddress: boolean): Mail {
  return compose(
    to,
    isNewAddress ? 'Confirm your new e-mail address' : 'Verify your school e-mail',
    [
      isNewAddress
        ? `You asked to use this address for your ${activeCampus().productName} account. Open this link to confirm it; until then your old address stays in use.`
        : `Welcome to ${activeCampus().productName}! Open this link to verify your school e-mail, then sign in.`,
      'The link works once and expires in 24 hours. If you did not ask for it, ignore this e-mail.',
    ],
    link,
  );
}

/**
 * Sent instead of a second account when the address has a verified one, so sign-up never tells a
 * stranger who has an account. It carries no verification link, only the way to a new password.
 */
export function alreadyRegisteredMail(to: string, signInLink: string, resetLink: string): Mail {
  return compose(
    to,
    `You already have a ${activeCampus().productName} account`,
    [
      `Someone (probably you) tried to sign up with this address, but you already have an account: sign in at ${signInLink}. If you forgot it, reset your password with this link.`,
      'If it was not you, you can ignore this e-mail: nothing was changed.',
    ],
    resetLink,
  );
}

/**
 * Sent when a sign-up meets an account that was started with this address but never verified.
 * The link finishes the sign-up that asked for it: it sets that sign-up's password and names.
 */
export function finishSignUpMail(to: string, link: string): Mail {
  return compose(
    to,
    'Verify your school e-mail',
    [
      `Someone (probably you) signed up for ${activeCampus().productName} with this address. Open this link to verify it: your account then gets the name and password chosen in that sign-up, and any earlier unfinished sign-up with this address is replaced.`,
      'The link works once and expires in 24 hours. If you did not sign up, ignore this e-mail.',
    ],
    link,
  );
}

/** To the owner of an address another account asked to change to: no link, just the news. */
export function emailInUseMail(to: string, signInLink: string): Mail {
  return compose(to, `Someone tried to use your e-mail address on ${activeCampus().productName}`, [
    `Another ${activeCampus().productName} account asked to change its e-mail address to this one. This address already belongs to your account, so nothing was changed: your account is as it was.`,
    `You can sign in as usual at ${signInLink}.`,
  ]);
}

export function resetPasswordMail(to: string, link: string): Mail {
  return compose(
    to,
    `Reset your ${activeCampus().productName} password`,
    [
      'Open this link to choose a new password. It works once and expires in 1 hour.',
      'If you did not ask for it, ignore this e-mail: your password stays as it is.',
    ],
    link,
  );
}
