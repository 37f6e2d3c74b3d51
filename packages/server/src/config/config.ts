import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { CAMPUS_TIME_ZONE } from '@campus-books/common/campus';
import { DEFAULT_GROUPME_LINK_PREFIX } from '@campus-books/common/constants';
import { DEFAULT_PASSWORD_THREAD_NICE } from '../features/accounts/password';
import { endOfZonedDay, isTimeZone, parseCalendarDate } from '../jobs/calendar';
import { readPushConfig, type PushConfig } from './push-config';
import { readSsoConfig, type SsoConfig } from './sso-config';

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
    );

const DEFAULT_MAIL_FROM = 'Textbook Marketplace <no-reply@localhost>';

const attemptCount = z.coerce.number().int().min(1).max(1_000_000);

/** The environment the product reads (product-decisions.md, "Configuration"). */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: urlWithScheme(['http', 'https'], 'web').optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: urlWithScheme(['postgres', 'postgresql'], 'PostgreSQL').optional(),
  /** Connections an app server opens to DATABASE_URL at most (db/database.ts splits them in three). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(3).max(1000).default(30),
  SMTP_URL: urlWithScheme(['smtp', 'smtps'], 'SMTP').optional(),
  MAIL_FROM: z.string().default(DEFAULT_MAIL_FROM),
  SCHOOL_EMAIL_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^([a-z0-9-]+\.)+[a-z]{2,}$/, 'must be a domain such as richmond.edu')
    .optional(),
  GROUPME_LINK_PREFIX: urlWithScheme(['https'], 'https').default(DEFAULT_GROUPME_LINK_PREFIX),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  S3_BUCKET: optionalText,
  S3_ENDPOINT: urlWithScheme(['http', 'https'], 'web').optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  DONATION_URL: urlWithScheme(['https'], 'https').optional(),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Attempts per window (features/accounts, docs/security.md "Sign-in and sign-up limits"); sized for a
  // campus behind a few NAT addresses. The e2e suite raises them.
  RATE_LIMIT_WINDOW_MINUTES: attemptCount.default(60),
  /** Failed sign-ins from one address before it must solve a challenge. */
  RATE_LIMIT_SIGNIN_PER_IP: attemptCount.default(500),
  /** Failed sign-ins on one account before it refuses devices it does not know. */
  RATE_LIMIT_SIGNIN_PER_ACCOUNT: attemptCount.default(100),
  /** Sign-ups from one address before it must solve a challenge. */
  RATE_LIMIT_SIGNUP_PER_IP: attemptCount.default(500),
  RATE_LIMIT_MAIL_PER_IP: attemptCount.default(200),
  RATE_LIMIT_MAIL_PER_ADDRESS: attemptCount.default(5),
  /** Listings one account may create per hour. */
  RATE_LIMIT_LISTINGS_PER_ACCOUNT: attemptCount.default(20),
  /** Conversations one account may open per hour, and messages (and offers) it may send per minute. */
  RATE_LIMIT_CONVERSATIONS_PER_HOUR: attemptCount.default(30),
  RATE_LIMIT_MESSAGES_PER_MINUTE: attemptCount.default(30),
  /** How long an accepted offer holds a listing for its buyer (features/conversations). */
  HOLD_HOURS: z.coerce.number().int().min(1).max(1440).default(72),
  /** How often a live stream (Server-Sent Events) sends a comment, so proxies keep it open. */
  STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).max(300_000).default(25_000),
  /** How often the hold job ends the holds whose time is over. */
  HOLD_CHECK_MS: z.coerce.number().int().min(1000).max(86_400_000).default(300_000),
  /** A message not read in the app this many minutes after it was sent is mailed (once per quiet period). */
  MESSAGE_MAIL_DELAY_MINUTES: z.coerce.number().int().min(1).max(1440).default(5),
  /** How often the message-mail job looks for such messages. */
  MESSAGE_MAIL_CHECK_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /** Ratings of an exchange show once both sides rated, or this many days after the sale. */
  RATING_REVEAL_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  /** How often the job that asks both students of a new exchange to rate it runs. */
  RATING_PROMPT_CHECK_MS: z.coerce.number().int().min(1000).max(86_400_000).default(60_000),
  /** A meetup's reminder mail goes this many minutes before it. */
  MEETUP_REMINDER_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  /** Proof-of-work difficulty: PBKDF2 iterations per try, and the highest try count. */
  ALTCHA_COST: attemptCount.default(1000),
  ALTCHA_MAX_COUNTER: attemptCount.default(10_000),
  // Background jobs (src/jobs): how often a server looks for due ones; a recurring no-op job that
  // records each run, for the load-balancer test only.
  JOBS_POLL_MS: z.coerce.number().int().min(50).max(3_600_000).default(5_000),
  JOBS_HEARTBEAT_MS: z.coerce.number().int().min(100).max(3_600_000).optional(),
  JOBS_LEASE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(300_000),
  // How long a stopping server waits for requests in flight (and tells the balancer it is leaving).
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  // How long a stopping server keeps serving while /api/health answers 503, before it closes its
  // socket: a balancer's health checks take it out meanwhile (0 without a balancer).
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  // Book lookup by ISBN (features/books): the providers' base URLs, so a mirror or a test can stand in.
  BOOK_LOOKUP: z.enum(['on', 'off']).default('on'),
  OPEN_LIBRARY_URL: urlWithScheme(['http', 'https'], 'web').default('https://openlibrary.org'),
  OPEN_LIBRARY_COVERS_URL: urlWithScheme(['http', 'https'], 'web').default(
    'https://covers.openlibrary.org',
  ),
  GOOGLE_BOOKS_URL: urlWithScheme(['http', 'https'], 'web').default('https://www.googleapis.com'),
  GOOGLE_BOOKS_COVERS_URL: urlWithScheme(['http', 'https'], 'web').default(
    'https://books.google.com',
  ),
  GOOGLE_BOOKS_API_KEY: optionalText,
  // Trust and freshness (features/moderation, listing-expiry.ts).
  LISTING_LIFETIME_DAYS: z.coerce.number().int().min(1).max(3650).default(60),
  /** How often the expiry job looks for listings to expire or remind (the browser tests: seconds). */
  LISTING_EXPIRY_CHECK_MS: z.coerce.number().int().min(1000).max(86_400_000).default(900_000),
  /** Ends of terms (YYYY-MM-DD, comma-separated): a listing expires at the next one instead. */
  TERM_END_DATES: z
    .string()
    .trim()
    .regex(/^(\d{4}-\d{2}-\d{2})?(\s*,\s*\d{4}-\d{2}-\d{2})*$/, 'must be dates such as 2027-05-08')
    .default(''),
  /** Reports from this many different students hide a listing until a moderator looks. */
  REPORT_HIDE_THRESHOLD: z.coerce.number().int().min(1).max(1000).default(3),
  /** Only reports from verified accounts at least this many days old count toward that hide. */
  REPORT_MIN_ACCOUNT_AGE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /** Of one student's reports, at most this many in 24 hours count toward hides. */
  REPORT_HIDES_PER_DAY: z.coerce.number().int().min(1).max(1000).default(3),
  /** The campus's moderators (comma-separated school e-mails; verified accounts only). */
  MODERATOR_EMAILS: z.string().default(''),
  // Alert mails (features/alerts): the daily digest goes out at this hour of the campus's day.
  /** An IANA time zone name; default the campus configuration's (common/src/campus.ts). */
  CAMPUS_TIME_ZONE: z.string().trim().default(CAMPUS_TIME_ZONE),
  ALERT_DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(7),
  /**
   * Test only: the app's clock (`app.jobs.now()`: expiry, reminders, links) runs this many days ahead,
   * so a browser test can restart a server past its listings' expiry. Refused when NODE_ENV=production.
   */
  TEST_CLOCK_OFFSET_DAYS: z.coerce.number().int().min(0).max(3650).optional(),
  /** Prometheus metrics at /metrics (plugins/metrics.ts), behind a bearer token; off by default. */
  METRICS: z.enum(['on', 'off']).default('off'),
  /** The bearer token /metrics asks for; default: one generated into DATA_DIR/metrics-token. */
  METRICS_TOKEN: z.string().trim().min(32, 'must be at least 32 characters').optional(),
  /**
   * The nice value (0–19) of the threads that hash and check passwords (features/accounts/password.ts):
   * higher leaves more of a busy core to the other requests during a wave of sign-ins.
   */
  PASSWORD_THREAD_NICE: z.coerce
    .number()
    .int()
    .min(0)
    .max(19)
    .default(DEFAULT_PASSWORD_THREAD_NICE),
  /** Memory for signed-out visitors' rendered pages (plugins/page-cache.ts), in MB; 0 keeps none. */
  PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
  // Retention (features/privacy): how long mail copies in DATA_DIR/outbox and the counts of
  // searches that found nothing are kept.
  RETENTION_OUTBOX_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  RETENTION_SEARCH_TERMS_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  schoolEmailDomain: string | null;
  groupmeLinkPrefix: string;
  sessionSecret: string;
  s3:
    | {
        bucket: string;
        endpoint?: string;
        region: string;
        accessKeyId?: string;
        secretAccessKey?: string;
      }
    | undefined;
  donationUrl: string | null;
  trustProxy: boolean;
  logLevel: Env['LOG_LEVEL'];
  /** The password threads' nice value (PASSWORD_THREAD_NICE). */
  passwordThreadNice: number;
  /** Whether cookies get the Secure flag: true when PUBLIC_URL is https. */
  secureCookies: boolean;
  rateLimits: RateLimits;
  /** The proof-of-work challenge an address past its ceiling solves (features/accounts/challenge.ts). */
  challenge: { cost: number; maxCounter: number };
  jobs: { pollMs: number; leaseMs: number; heartbeatMs: number | null };
  /** How long SIGTERM waits for requests in flight before the process exits anyway. */
  shutdownGraceMs: number;
  /** How long SIGTERM keeps serving with /api/health at 503 before it stops accepting. */
  shutdownDelayMs: number;
  books: BookLookupConfig;
  trust: TrustConfig;
  /** The daily alert digest: at `digestHour`:00 in `timeZone` (IANA). */
  alerts: { timeZone: string; digestHour: number };
  conversations: ConversationsConfig;
  /** Ratings and meetups (features/ratings, features/meetups, issue 29). */
  ratings: { revealMs: number; promptCheckMs: number; meetupReminderMs: number };
  /** How far ahead of the real time the app's clock runs (TEST_CLOCK_OFFSET_DAYS; 0 in production). */
  clockOffsetMs: number;
  /** Prometheus metrics: `token` null means the one in DATA_DIR/metrics-token. */
  metrics: { enabled: boolean; token: string | null };
  /** Bytes of signed-out visitors' rendered pages kept in memory (0: none). */
  pageCacheBytes: number;
  /** What the retention job keeps, in days (features/privacy/retention.ts). */
  retention: { outboxDays: number; searchTermsDays: number };
  /** Single sign-on (SSO_PROTOCOL and its settings, config/sso-config.ts); null when off. */
  sso: SsoConfig | null;
  /** Whether the verified school e-mail sign-up is open (PASSWORD_SIGNUP). */
  passwordSignUp: boolean;
  /** Web Push: VAPID keys and contact (VAPID_*, config/push-config.ts). */
  push: PushConfig;
}

/** An end of term: the date as configured, and its last second on the campus's clocks. */
export interface TermEnd {
  /** `YYYY-MM-DD`. */
  date: string;
  /** 23:59:59 of that date in CAMPUS_TIME_ZONE (not UTC: a Pacific campus's day ends 8 hours later). */
  endsAt: Date;
}

/** Listing freshness and moderation (issue 16). */
export interface TrustConfig {
  listingLifetimeDays: number;
  expiryCheckMs: number;
  /** Term ends (TERM_END_DATES), ascending. */
  termEnds: TermEnd[];
  reportHideThreshold: number;
  /** Reports count toward a hide from accounts this old (ms), verified, within reportHidesPerDay. */
  reportMinAccountAgeMs: number;
  reportHidesPerDay: number;
  /** Lower-case addresses. */
  moderatorEmails: string[];
}

/** Conversations, offers and holds (features/conversations, issue 28). */
export interface ConversationsConfig {
  conversationsPerHour: number;
  messagesPerMinute: number;
  holdMs: number;
  holdCheckMs: number;
  streamHeartbeatMs: number;
  messageMailDelayMs: number;
  messageMailCheckMs: number;
}

/** Where ISBNs are looked up (base URLs without a trailing slash); `lookup` false asks no one. */
export interface BookLookupConfig {
  lookup: boolean;
  openLibraryUrl: string;
  openLibraryCoversUrl: string;
  googleBooksUrl: string;
  googleBooksCoversUrl: string;
  /** Google Books is asked (after Open Library) only when a key is set. */
  googleBooksApiKey: string | null;
}

/** Attempts allowed per window; "mail" covers sign-up, forgot-password and resend-verification. */
export interface RateLimits {
  windowMs: number;
  signInPerIp: number;
  signInPerAccount: number;
  signUpPerIp: number;
  mailPerIp: number;
  mailPerAddress: number;
  /** Listings created per account per hour. */
  listingsPerAccount: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the session secret from DATA_DIR, creating it once, so sessions survive restarts. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

/** Parses the environment once; every problem is listed in one error. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  const problems: string[] = [];
  const ssoPublicUrl = (source.PUBLIC_URL ?? `http://localhost:${source.PORT ?? 3000}`).trim();
  const { sso, passwordSignUp } = readSsoConfig(
    source,
    { production: source.NODE_ENV === 'production', publicUrl: ssoPublicUrl.replace(/\/+$/, '') },
    problems,
  );
  const push = readPushConfig(
    source,
    {
      production: source.NODE_ENV === 'production',
      mailFrom: source.MAIL_FROM ?? DEFAULT_MAIL_FROM,
    },
    problems,
  );
  if (!parsed.success) {
    throw new ConfigError([
      ...parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`),
      ...problems,
    ]);
  }
  const env = parsed.data;
  const s3Keys = [env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY];
  if (env.S3_ENDPOINT && !env.S3_BUCKET)
    problems.push('S3_BUCKET: required when S3_ENDPOINT is set');
  if (s3Keys.some(Boolean) && !env.S3_BUCKET)
    problems.push('S3_BUCKET: required with S3 credentials');
  if (env.TEST_CLOCK_OFFSET_DAYS !== undefined && env.NODE_ENV === 'production')
    problems.push('TEST_CLOCK_OFFSET_DAYS: for tests only, refused when NODE_ENV=production');
  if (!isTimeZone(env.CAMPUS_TIME_ZONE)) {
    problems.push(
      `CAMPUS_TIME_ZONE: "${env.CAMPUS_TIME_ZONE}" is not a time zone this server knows (an IANA name such as America/New_York)`,
    );
  }
  const termEndDates = env.TERM_END_DATES.split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  for (const date of termEndDates) {
    if (!parseCalendarDate(date)) problems.push(`TERM_END_DATES: ${date} is not a date`);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const dataDir = path.resolve(env.DATA_DIR);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    schoolEmailDomain: env.SCHOOL_EMAIL_DOMAIN ?? null,
    groupmeLinkPrefix: env.GROUPME_LINK_PREFIX,
    sessionSecret: env.SESSION_SECRET ?? loadOrCreateSecret(dataDir),
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION,
          accessKeyId: env.S3_ACCESS_KEY_ID,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        }
      : undefined,
    donationUrl: env.DONATION_URL ?? null,
    trustProxy: env.TRUST_PROXY === 'true',
    logLevel: env.LOG_LEVEL,
    passwordThreadNice: env.PASSWORD_THREAD_NICE,
    secureCookies: publicUrl.startsWith('https://'),
    rateLimits: {
      windowMs: env.RATE_LIMIT_WINDOW_MINUTES * 60_000,
      signInPerIp: env.RATE_LIMIT_SIGNIN_PER_IP,
      signInPerAccount: env.RATE_LIMIT_SIGNIN_PER_ACCOUNT,
      signUpPerIp: env.RATE_LIMIT_SIGNUP_PER_IP,
      mailPerIp: env.RATE_LIMIT_MAIL_PER_IP,
      mailPerAddress: env.RATE_LIMIT_MAIL_PER_ADDRESS,
      listingsPerAccount: env.RATE_LIMIT_LISTINGS_PER_ACCOUNT,
    },
    challenge: { cost: env.ALTCHA_COST, maxCounter: env.ALTCHA_MAX_COUNTER },
    jobs: {
      pollMs: env.JOBS_POLL_MS,
      leaseMs: env.JOBS_LEASE_MS,
      heartbeatMs: env.JOBS_HEARTBEAT_MS ?? null,
    },
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    shutdownDelayMs: env.SHUTDOWN_DELAY_MS,
    books: {
      lookup: env.BOOK_LOOKUP === 'on',
      openLibraryUrl: env.OPEN_LIBRARY_URL.replace(/\/+$/, ''),
      openLibraryCoversUrl: env.OPEN_LIBRARY_COVERS_URL.replace(/\/+$/, ''),
      googleBooksUrl: env.GOOGLE_BOOKS_URL.replace(/\/+$/, ''),
      googleBooksCoversUrl: env.GOOGLE_BOOKS_COVERS_URL.replace(/\/+$/, ''),
      googleBooksApiKey: env.GOOGLE_BOOKS_API_KEY ?? null,
    },
    trust: {
      listingLifetimeDays: env.LISTING_LIFETIME_DAYS,
      expiryCheckMs: env.LISTING_EXPIRY_CHECK_MS,
      termEnds: termEndDates
        .map((date) => ({
          date,
          endsAt: endOfZonedDay(env.CAMPUS_TIME_ZONE, parseCalendarDate(date)!),
        }))
        .sort((a, b) => a.endsAt.getTime() - b.endsAt.getTime()),
      reportHideThreshold: env.REPORT_HIDE_THRESHOLD,
      reportMinAccountAgeMs: env.REPORT_MIN_ACCOUNT_AGE_DAYS * 24 * 60 * 60_000,
      reportHidesPerDay: env.REPORT_HIDES_PER_DAY,
      moderatorEmails: env.MODERATOR_EMAILS.split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    },
    alerts: { timeZone: env.CAMPUS_TIME_ZONE, digestHour: env.ALERT_DIGEST_HOUR },
    conversations: {
      conversationsPerHour: env.RATE_LIMIT_CONVERSATIONS_PER_HOUR,
      messagesPerMinute: env.RATE_LIMIT_MESSAGES_PER_MINUTE,
      holdMs: env.HOLD_HOURS * 60 * 60_000,
      holdCheckMs: env.HOLD_CHECK_MS,
      streamHeartbeatMs: env.STREAM_HEARTBEAT_MS,
      messageMailDelayMs: env.MESSAGE_MAIL_DELAY_MINUTES * 60_000,
      messageMailCheckMs: env.MESSAGE_MAIL_CHECK_MS,
    },
    ratings: {
      revealMs: env.RATING_REVEAL_DAYS * 24 * 60 * 60_000,
      promptCheckMs: env.RATING_PROMPT_CHECK_MS,
      meetupReminderMs: env.MEETUP_REMINDER_MINUTES * 60_000,
    },
    clockOffsetMs: (env.TEST_CLOCK_OFFSET_DAYS ?? 0) * 24 * 60 * 60_000,
    metrics: { enabled: env.METRICS === 'on', token: env.METRICS_TOKEN ?? null },
    pageCacheBytes: env.PAGE_CACHE_MB * 1024 * 1024,
    retention: {
      outboxDays: env.RETENTION_OUTBOX_DAYS,
      searchTermsDays: env.RETENTION_SEARCH_TERMS_DAYS,
    },
    sso,
    passwordSignUp,
    push,
  };
}
