import type { Mail } from '../../plugins/mail';

const PRODUCT = 'Campus Books';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One short mail: paragraphs of text, then one link, in plain text and HTML alike. */
function compose(to: string, subject: string, paragraphs: string[], link?: string): Mail {
  const text = [...paragraphs, ...(link ? [link] : []), `— ${PRODUCT}`].join('\n\n');
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`] : []),
    `<p>— ${PRODUCT}</p>`,
  ].join('\n');
  return { to, subject, text, html };
}

export function verifyEmailMail(to: string, link: string, isNewAddress: boolean): Mail {
  return compose(
    to,
    isNewAddress ? 'Confirm your new e-mail address' : 'Verify your school e-mail',
    [
      isNewAddress
        ? `You asked to use this address for your ${PRODUCT} account. Open this link to confirm it; until then your old address stays in use.`
        : `Welcome to ${PRODUCT}! Open this link to verify your school e-mail, then sign in.`,
      'The link works once and expires in 24 hours. If you did not ask for it, ignore this e-mail.',
    ],
    link,
  );
}

/** Sent instead of a second account, so sign-up never tells a stranger who has an account. */
export function alreadyRegisteredMail(to: string, signInLink: string, verifyLink?: string): Mail {
  return compose(
    to,
    `You already have a ${PRODUCT} account`,
    [
      `Someone (probably you) tried to sign up with this address, but you already have an account: sign in at ${signInLink}, or reset your password from the sign-in page if you forgot it.`,
      ...(verifyLink
        ? ['Your e-mail is not verified yet: this link verifies it (it works once, for 24 hours).']
        : []),
      'If it was not you, you can ignore this e-mail.',
    ],
    verifyLink,
  );
}

export function resetPasswordMail(to: string, link: string): Mail {
  return compose(
    to,
    `Reset your ${PRODUCT} password`,
    [
      'Open this link to choose a new password. It works once and expires in 1 hour.',
      'If you did not ask for it, ignore this e-mail: your password stays as it is.',
    ],
    link,
  );
}
