/** Answers of the account routes; docs/api/accounts.md quotes them, the web app shows them. */
export const AUTH_MESSAGES = {
  signedUp: 'Account created. We sent a verification link to your school e-mail.',
  wrongCredentials: 'Wrong e-mail or password',
  notVerified:
    'Your school e-mail is not verified yet. Use the link we sent you, or ask for a new one with "Resend verification e-mail".',
  verificationResent:
    'If that e-mail belongs to an account that still needs verification, we sent a new link.',
  verifyInvalid: 'This verification link is invalid or has expired. Request a new one.',
  emailVerified: 'Your e-mail is verified. You can sign in now.',
  alreadyVerified: 'Your e-mail is already verified. Sign in to continue.',
  emailChanged: 'Your new e-mail address is confirmed.',
  emailTaken: 'That e-mail address is already used by another account',
  signedOut: 'You are signed out.',
  resetRequested: 'If an account exists for that e-mail, we sent a link to reset the password.',
  resetInvalid: 'This password reset link is invalid or has expired. Request a new one.',
  passwordReset: 'Your password has been reset. Sign in with your new password.',
} as const;
