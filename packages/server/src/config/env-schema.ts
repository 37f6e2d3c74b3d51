import { z } from 'zod';
import {
  jobSettings,
  limitSettings,
  observabilitySettings,
  performanceSettings,
  retentionSettings,
  testSettings,
} from './env-schema-operations';

/**
 * The environment the product reads (product-decisions.md, "Configuration"), one object per section
 * of docs/configuration.md, which is generated from these descriptions (`npm run docs:configuration`).
 * `unset` says what happens when a setting without a fixed default is not set.
 */
declare module 'zod' {
  interface GlobalMeta {
    /** The default column of docs/configuration.md when it is not the schema's default value. */
    unset?: string;
    /** What the setting accepts, when the schema's type alone does not say (a URL's schemes). */
    accepts?: string;
  }
}

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const urlWithScheme = (schemes: string[], what: string) =>
  z
    .string()
    .trim()
    .refine(
      (v) => {
        try {
          return schemes.includes(new URL(v).protocol.replace(':', ''));
        } catch {
          return false;
        }
      },
      `must be a ${what} URL (${schemes.map((s) => `${s}://`).join(' or ')}…)`,
    )
    .meta({ accepts: `${schemes.map((s) => `\`${s}://…\``).join(' or ')} URL` });

export const DEFAULT_MAIL_FROM = 'Textbook Marketplace <no-reply@localhost>';

export const basicSettings = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'])
    .default('development')
    .describe(
      '`production` is what `npm start` sets; `test` (the API tests) turns the background job runner off (docs/operations.md, "Starting and stopping").',
    ),
  HOST: z.string().default('0.0.0.0').describe('The address to listen on.'),
  PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(3000)
    .describe('The HTTP port; the web app and `/api` are served by the same process.'),
  PUBLIC_URL: urlWithScheme(['http', 'https'], 'web').optional().meta({
    unset: '`http://localhost:$PORT`',
    description:
      'The base of links in e-mails and Open Graph tags; `https://…` makes the session cookie `Secure`.',
  }),
  DATA_DIR: z
    .string()
    .default('./data')
    .describe(
      'The folder of the embedded database, uploaded files, the mail outbox and the generated secrets and keys.',
    ),
  SCHOOL_EMAIL_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^([a-z0-9-]+\.)+[a-z]{2,}$/, 'must be a domain such as richmond.edu')
    .optional()
    .meta({
      unset: "the campus file's `emailDomain` (none: any address)",
      accepts: 'a domain',
      description:
        'e.g. `richmond.edu` to admit one campus only (and its subdomains); set, it wins over the campus file.',
    }),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional().meta({
    unset: 'generated once into `DATA_DIR/session-secret`',
    description:
      'The key that signs session tokens (at least 32 characters); set the same value on every app server.',
  }),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .describe('`true` behind a reverse proxy, so client addresses come from `X-Forwarded-For`.'),
  GROUPME_LINK_PREFIX: urlWithScheme(['https'], 'https').optional().meta({
    unset: "the campus file's `groupme.linkPrefix` (`https://groupme.com/`)",
    accepts: 'an https URL',
    description:
      'The start every GroupMe link on a profile must have; set, it wins over the campus file.',
  }),
  DONATION_URL: urlWithScheme(['https'], 'https')
    .optional()
    .meta({ unset: 'no donation button', description: 'The coffee-support link.' }),
  CAMPUS_CONFIG: optionalText.meta({
    unset:
      '`campus.yaml`, `campus.yml` or `campus.json` in `DATA_DIR`, else the default campus (packages/server/campus/default.yaml)',
    accepts: 'a file path',
    description:
      'The campus file (YAML or JSON; config/campus-file.ts): the campus this installation serves. `npm run campus -- check` checks one.',
  }),
  CAMPUS_TIME_ZONE: optionalText.meta({
    unset: "the campus file's `timeZone`",
    accepts: 'an IANA time zone name',
    description:
      "The campus's time zone, for the digest's hour and term ends; set, it wins over the campus file (kept for installations from before campus files). An unknown name stops the start.",
  }),
});

export const databaseSettings = z.object({
  DATABASE_URL: urlWithScheme(['postgres', 'postgresql'], 'PostgreSQL').optional().meta({
    unset: 'the embedded database in `DATA_DIR`',
    description: 'A PostgreSQL server to use instead (README, "Running against PostgreSQL").',
  }),
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(3)
    .max(1000)
    .default(30)
    .describe(
      'Connections each app server opens to `DATABASE_URL` at most: a third for each kind of search, the rest for everything else (docs/operations.md, "Several app servers").',
    ),
  CAMPUS_STATE_POLL_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(60_000)
    .default(1000)
    .describe(
      'A many-campus installation: how often each app server reads the campus directory again, to see a campus set read-only, being moved or moved to another server (docs/operations.md, "Moving a campus to another PostgreSQL server"); a change is also announced at once.',
    ),
  PG_DUMP: z.string().trim().min(1).optional().meta({
    unset: '`pg_dump` on the PATH',
    description:
      "`npm run campus -- move`: the `pg_dump` that copies a campus (of the servers' major version or later).",
  }),
  PG_RESTORE: z.string().trim().min(1).optional().meta({
    unset: '`pg_restore` on the PATH',
    description:
      '`npm run campus -- move`: the `pg_restore` that writes the copy on the new server (the same version as `PG_DUMP`).',
  }),
});

export const mailSettings = z.object({
  SMTP_URL: urlWithScheme(['smtp', 'smtps'], 'SMTP').optional().meta({
    unset: 'mails are written to `DATA_DIR/outbox/` as `.eml` files and logged',
    description: 'The SMTP server that sends the mails.',
  }),
  MAIL_FROM: z.string().default(DEFAULT_MAIL_FROM).describe('The sender of the e-mails.'),
});

export const storageSettings = z.object({
  S3_BUCKET: optionalText.meta({
    unset: 'files in `DATA_DIR/uploads`',
    description: 'An S3-compatible bucket for uploaded photos; every app server shares it.',
  }),
  S3_ENDPOINT: urlWithScheme(['http', 'https'], 'web').optional().meta({
    unset: "AWS's",
    description: 'The S3-compatible service (MinIO, R2…); needs `S3_BUCKET`.',
  }),
  S3_REGION: z.string().default('us-east-1').describe("The bucket's region."),
  S3_ACCESS_KEY_ID: optionalText.meta({
    unset: "the AWS SDK's (environment, profile, instance role)",
    description: 'The access key; needs `S3_BUCKET`.',
  }),
  S3_SECRET_ACCESS_KEY: optionalText.meta({
    unset: "the AWS SDK's",
    description: 'The secret of that access key.',
  }),
});

export const dealSettings = z.object({
  LISTING_LIFETIME_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(60)
    .describe(
      'A listing expires this many days after it is created, relisted or confirmed available (reminders 7 days and 1 day before).',
    ),
  TERM_END_DATES: z
    .string()
    .trim()
    .regex(/^(\d{4}-\d{2}-\d{2})?(\s*,\s*\d{4}-\d{2}-\d{2})*$/, 'must be dates such as 2027-05-08')
    .default('')
    .meta({
      unset: "the campus file's `termEndDates` (none: `LISTING_LIFETIME_DAYS` only)",
      accepts: '`YYYY-MM-DD` dates, comma-separated',
      description:
        "Ends of terms, e.g. `2027-05-08,2027-12-18`: a listing expires at the next one a week away or more (23:59:59 in `CAMPUS_TIME_ZONE`); in a term's last week, students who asked get one end-of-term mail (at `ALERT_DIGEST_HOUR`).",
    }),
  HOLD_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(1440)
    .default(72)
    .describe('How long an accepted offer holds a listing for its buyer ("Pending").'),
  MESSAGE_MAIL_DELAY_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(1440)
    .default(5)
    .describe(
      'A message not read in the app this many minutes after it was sent is mailed (`New message about <book>`, one mail per conversation until read).',
    ),
  RATING_REVEAL_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(365)
    .default(14)
    .describe(
      'The ratings of an exchange show once both students rated, or this many days after the sale.',
    ),
  MEETUP_REMINDER_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(1440)
    .default(60)
    .describe('How long before an accepted meetup both students get a reminder mail.'),
  ALERT_DIGEST_HOUR: z.coerce
    .number()
    .int()
    .min(0)
    .max(23)
    .default(7)
    .describe(
      'The hour of the campus\'s day (`CAMPUS_TIME_ZONE`) at which the daily alert digest goes out (docs/operations.md, "The daily alert digest").',
    ),
});

export const moderationSettings = z.object({
  MODERATOR_EMAILS: z.string().default('').meta({
    unset: 'no moderators',
    accepts: 'e-mail addresses, comma-separated',
    description:
      'The campus moderators: school e-mails of verified accounts, comma-separated (docs/operations.md, "Appointing a moderator").',
  }),
  REPORT_HIDE_THRESHOLD: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(3)
    .describe(
      'Open reports from this many different students hide a listing until a moderator looks at it.',
    ),
  REPORT_MIN_ACCOUNT_AGE_DAYS: z.coerce
    .number()
    .int()
    .min(0)
    .max(365)
    .default(7)
    .describe(
      'Only reports from verified accounts at least this many days old count toward that hide (decision 016).',
    ),
  REPORT_HIDES_PER_DAY: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(3)
    .describe("At most this many of one student's reports in 24 hours count toward hides."),
});

// Book lookup by ISBN (features/books): the providers' base URLs, so a mirror or a test can stand in.
export const bookLookupSettings = z.object({
  BOOK_LOOKUP: z
    .enum(['on', 'off'])
    .default('on')
    .describe("`off`: the listing form's ISBN autofill asks no provider."),
  OPEN_LIBRARY_URL: urlWithScheme(['http', 'https'], 'web')
    .default('https://openlibrary.org')
    .describe("Open Library's base URL (a mirror, or a test's stand-in)."),
  OPEN_LIBRARY_COVERS_URL: urlWithScheme(['http', 'https'], 'web')
    .default('https://covers.openlibrary.org')
    .describe("Open Library's covers host: covers are fetched from it only."),
  GOOGLE_BOOKS_API_KEY: optionalText.meta({
    unset: 'Open Library only',
    description: 'Google Books is asked after Open Library when set.',
  }),
  GOOGLE_BOOKS_URL: urlWithScheme(['http', 'https'], 'web')
    .default('https://www.googleapis.com')
    .describe("Google Books' API base URL."),
  GOOGLE_BOOKS_COVERS_URL: urlWithScheme(['http', 'https'], 'web')
    .default('https://books.google.com')
    .describe("Google Books' covers host."),
});

// Attempts per window (features/accounts, docs/security.md "Sign-in and sign-up limits"); sized for a
// campus behind a few NAT addresses. The e2e suite raises them.

export const envSchema = z.object({
  ...basicSettings.shape,
  ...databaseSettings.shape,
  ...mailSettings.shape,
  ...storageSettings.shape,
  ...dealSettings.shape,
  ...moderationSettings.shape,
  ...bookLookupSettings.shape,
  ...limitSettings.shape,
  ...jobSettings.shape,
  ...retentionSettings.shape,
  ...performanceSettings.shape,
  ...observabilitySettings.shape,
  ...testSettings.shape,
});

export type Env = z.infer<typeof envSchema>;
