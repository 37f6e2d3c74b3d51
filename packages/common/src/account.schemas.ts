import { z } from 'zod';
import { activeCampus } from './active-campus';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, SHORT_TEXT_MAX_LENGTH } from './constants';
import { apiSchemas, dateTimeSchema } from './api';
import { isSameOrigin } from './host-name';
import { MESSAGES } from './messages';
import { cleanText, isLinkText } from './text';
import './zod-messages';

/** The account rules a deployment configures; the server sends them to the web app (GET /api/config). */
export interface AccountRules {
  /** e.g. 'richmond.edu'; null admits any .edu address. */
  schoolEmailDomain: string | null;
  /** Required start of GroupMe links, e.g. 'https://groupme.com/'. */
  groupmeLinkPrefix: string;
  /** Whether sign-up needs a GroupMe link; the active campus's groupme.required when absent. */
  groupmeRequired?: boolean;
  /**
   * The school domains of the campuses this one shares with (consortium sharing, both sides opting
   * in): their students may sign up here with their own school address too.
   */
  partnerEmailDomains?: readonly string[];
}

export function isSchoolEmail(email: string, domain: string | null): boolean {
  const host = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (!domain) return /^([a-z0-9-]+\.)+edu$/.test(host);
  const wanted = domain.toLowerCase();
  return host === wanted || host.endsWith(`.${wanted}`);
}

/**
 * A GroupMe link must be on the configured prefix's origin (its host in its one spelling, so
 * `https://GroupMe.com./x` is on `https://groupme.com/`), under the prefix's path, without
 * credentials.
 */
export function isGroupmeLink(link: string, prefix: string): boolean {
  // The URL parser would drop a leading space, a tab or a line break, so they are refused here.
  if (!isLinkText(link) || link.trim() !== link) return false;
  try {
    const url = new URL(link);
    const wanted = new URL(prefix);
    return (
      isSameOrigin(url, wanted) &&
      url.username === '' &&
      url.password === '' &&
      url.pathname.startsWith(wanted.pathname)
    );
  } catch {
    return false;
  }
}

/**
 * The password rule as the forms state it (sign-up, reset, change). The rule lives in
 * `passwordSchema`; its bounds are PASSWORD_MIN_LENGTH and PASSWORD_MAX_LENGTH.
 */
export const PASSWORD_HINT = `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters; a long passphrase is welcome`;

export const passwordSchema = z
  .string({ error: MESSAGES.passwordRequired })
  .min(1, MESSAGES.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, MESSAGES.passwordLength)
  .max(PASSWORD_MAX_LENGTH, MESSAGES.passwordLength);

/** Why an address was refused: it names the campus's domain when one is configured. */
export function schoolEmailMessage(domain: string | null): string {
  return domain ? MESSAGES.schoolEmailOf(domain) : MESSAGES.schoolEmail;
}

/** The sign-up form's e-mail label: '(.edu)', or the campus's domain when one is configured. */
export function schoolEmailLabel(domain: string | null): string {
  return `Email Address (${domain ? `@${domain}` : '.edu'})`;
}

const emailFormatWith = (message: string | (() => string)) =>
  z
    .string({ error: MESSAGES.emailRequired })
    .trim()
    .toLowerCase()
    .min(1, MESSAGES.emailRequired)
    .max(SHORT_TEXT_MAX_LENGTH, MESSAGES.emailFormat)
    .pipe(z.email({ error: message }));
const emailFormat = emailFormatWith(MESSAGES.schoolEmail);

/**
 * The rules are read when a value is checked, never when the schema is built: a server serving
 * several campuses checks each request with its campus's (server/src/campuses/, decision 024).
 */
export function schoolEmailSchema(rules: AccountRules) {
  const message = () => schoolEmailMessage(rules.schoolEmailDomain);
  const isAdmitted = (email: string) =>
    isSchoolEmail(email, rules.schoolEmailDomain) ||
    (rules.partnerEmailDomains ?? []).some((domain) => isSchoolEmail(email, domain));
  return emailFormatWith(message).refine(isAdmitted, { error: message });
}

export function groupmeLinkSchema(rules: AccountRules) {
  const message = () => MESSAGES.groupmeLink(rules.groupmeLinkPrefix);
  return z
    .string({ error: message })
    .trim()
    .max(SHORT_TEXT_MAX_LENGTH, { error: message })
    .refine((link) => isLinkText(link) && isGroupmeLink(link, rules.groupmeLinkPrefix), {
      error: message,
    });
}

export function isGroupmeRequired(rules: AccountRules): boolean {
  return rules.groupmeRequired ?? activeCampus().config.groupme.required;
}

/**
 * The GroupMe link of a new account (sign-up, and the first single sign-on): required when the
 * campus says so (its groupme.required), otherwise optional, '' or absent meaning none.
 */
export function newAccountGroupmeLinkSchema(rules: AccountRules) {
  if (isGroupmeRequired(rules)) return groupmeLinkSchema(rules);
  return optionalGroupmeLinkSchema(rules).default('');
}

/** A link that may be left empty ('' stores no link); anything else must be a GroupMe link. */
function optionalGroupmeLinkSchema(rules: AccountRules) {
  const message = MESSAGES.groupmeLink(rules.groupmeLinkPrefix);
  return z
    .string({ error: message })
    .trim()
    .max(SHORT_TEXT_MAX_LENGTH, message)
    .refine(
      (link) => link === '' || (isLinkText(link) && isGroupmeLink(link, rules.groupmeLinkPrefix)),
      { error: message },
    );
}

const personName = (message: string) =>
  cleanText({ error: message, required: message })
    .min(1, message)
    .max(50, `${message.split(' ')[0]} name is too long`);

const usernameSchema = cleanText({
  error: 'Username is required',
  required: 'Username is required',
})
  .min(1, 'Username is required')
  .max(101, MESSAGES.usernameTooLong);

/** Username shown to buyers: first and last name joined by a space (spec section 3). */
export function deriveUsername(firstName: string, lastName: string): string {
  return `${firstName.trim()} ${lastName.trim()}`.trim();
}

export function signUpSchema(rules: AccountRules) {
  return z.object({
    firstName: personName(MESSAGES.firstNameRequired),
    lastName: personName(MESSAGES.lastNameRequired),
    username: cleanText({ error: MESSAGES.usernameTooLong })
      .max(101, MESSAGES.usernameTooLong)
      .optional(),
    email: schoolEmailSchema(rules),
    password: passwordSchema,
    groupmelink: newAccountGroupmeLinkSchema(rules),
  });
}
export type SignUpInput = z.infer<ReturnType<typeof signUpSchema>>;

export const signInSchema = z.object({
  email: emailFormat,
  password: z
    .string({ error: MESSAGES.passwordRequired })
    .min(1, MESSAGES.passwordRequired)
    .max(200, 'Password is too long'),
});
export type SignInInput = z.infer<typeof signInSchema>;

export const emailOnlySchema = z.object({ email: emailFormat });
export type EmailOnlyInput = z.infer<typeof emailOnlySchema>;

export const resetPasswordSchema = z.object({ password: passwordSchema });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** The password the user signs in with, asked again before a sensitive change (ASVS 2.1.6). */
const currentPasswordSchema = z
  .string({ error: MESSAGES.currentPasswordRequired })
  .min(1, MESSAGES.currentPasswordRequired)
  .max(200, MESSAGES.currentPasswordWrong);

/**
 * Profile update: only the fields sent change (spec section 7). A new e-mail or password needs
 * `currentPassword`; names, avatar and GroupMe link do not.
 */
export function profileUpdateSchema(rules: AccountRules) {
  return z
    .object({
      username: usernameSchema.optional(),
      email: schoolEmailSchema(rules).optional(),
      password: passwordSchema.optional(),
      // '' removes the link, where the campus does not require one.
      groupmelink: (isGroupmeRequired(rules)
        ? groupmeLinkSchema(rules)
        : optionalGroupmeLinkSchema(rules)
      ).optional(),
      avatar: z
        .string({ error: MESSAGES.avatarUrl })
        .trim()
        .max(500, MESSAGES.avatarUrl)
        .refine(isLinkText, MESSAGES.avatarUrl)
        .optional(),
      currentPassword: currentPasswordSchema.optional(),
    })
    .strict()
    .superRefine((input, context) => {
      if (profileUpdateNeedsPassword(input) && input.currentPassword === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['currentPassword'],
          message: MESSAGES.currentPasswordRequired,
        });
      }
    });
}
export type ProfileUpdateInput = z.infer<ReturnType<typeof profileUpdateSchema>>;

/** True when a profile update changes the e-mail or the password, which need the current one. */
export function profileUpdateNeedsPassword(input: { email?: unknown; password?: unknown }) {
  return input.email !== undefined || input.password !== undefined;
}

/** DELETE /api/user/delete/{id}: the current password; a missing body reads as an empty one. */
export const deleteAccountSchema = z.preprocess(
  (body) => body ?? {},
  z.object({ currentPassword: currentPasswordSchema }),
);
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

/** The signed-in user as the API answers it: never a password hash, token or suspension note. */
export const currentUserSchema = z
  .object({
    _id: z.string(),
    username: z.string(),
    email: z.string(),
    groupmelink: z.string(),
    avatar: z.string().nullable(),
    emailVerified: z.boolean(),
    pendingEmail: z
      .string()
      .nullable()
      .describe('A new e-mail address waiting for its verification link to be used'),
    createdAt: dateTimeSchema,
    isModerator: z
      .boolean()
      .optional()
      .describe('A campus moderator (MODERATOR_EMAILS); absent for everyone else'),
  })
  .register(apiSchemas, { id: 'CurrentUser' });
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** What a buyer may read about a seller (GET /api/user/get/{id}): no e-mail, nothing private. */
export const sellerSchema = z
  .object({ _id: z.string(), username: z.string(), groupmelink: z.string() })
  .register(apiSchemas, { id: 'Seller' });
export type Seller = z.infer<typeof sellerSchema>;

/** The solved payload (base64 of a small JSON object) as the forms send it: `altcha` in the body. */
export const challengeField = z.string().trim().min(1).max(4000).optional();
