import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setActiveCampus } from '@campus-books/common/active-campus';
import { shownCampus, type CampusConfig } from '@campus-books/common/campus-config';
import { endOfZonedDay, isTimeZone, parseCalendarDate } from '../jobs/zoned-time';
import { DEFAULT_MAIL_FROM, envSchema, type Env } from './env-schema';
import { CampusConfigError, campusFileOf, readCampusFile } from './campus-file';
import { campusWithLogoAddress, readCampusLogo, type CampusLogo } from './campus-logo';
import { campusSender } from './mail-sender';
import { readPushConfig, type PushConfig } from './push-config';
import { campusSignOn } from './campus-sso';
import { readSsoConfig, type SsoConfig } from './sso-config';

export interface Config {
  /** The campus served (its file: CAMPUS_CONFIG, DATA_DIR/campus.yaml, or the default campus). */
  campus: CampusConfig;
  /** Where the campus was read from. */
  campusFile: string;
  /** The campus's logo (theme.logo), checked; `campus.theme.logo` is its address. */
  campusLogo: CampusLogo | null;
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** How often a many-campus app server reads the campus directory again (CAMPUS_STATE_POLL_MS). */
  campusStatePollMs: number;
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
  jobs: { pollMs: number; idleScanMs: number; leaseMs: number; heartbeatMs: number | null };
  /** How long SIGTERM waits for requests in flight before the process exits anyway. */
  shutdownGraceMs: number;
  /** How long SIGTERM keeps serving with /api/health at 503 before it stops accepting. */
  shutdownDelayMs: number;
  /** How long the server answers its own health check before it listens (ops/warm-up.ts). */
  warmUpMs: number;
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
  /** Bytes of signed-out visitors' rendered pages kept in memory (0: none), per campus. */
  pageCacheBytes: number;
  /** Bytes the caches of a many-campus installation's campuses share (campus-cache-scope.ts). */
  cacheMemoryBytes: number;
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
/**
 * WARM_UP_MS's default on PostgreSQL (ops/warm-up.ts): PGlite 100k's health in its first 5 s went
 * from 0.74-0.82 to 0.88-0.96 of its later rate with it. The embedded engine starts without: there
 * it is one server people wait for, and its start at 10,000 listings (2.8 s) would pass 3 s.
 */
export const DEFAULT_WARM_UP_MS = 1500;

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  const problems: string[] = [];
  const ssoPublicUrl = (source.PUBLIC_URL ?? `http://localhost:${source.PORT ?? 3000}`).trim();
  let { sso, passwordSignUp } = readSsoConfig(
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
  const campusFile = campusFileOf(env);
  let campus: CampusConfig | undefined;
  let campusLogo: CampusLogo | null = null;
  try {
    const read = readCampusFile(campusFile);
    campusLogo = readCampusLogo(read, campusFile);
    campus = campusWithLogoAddress(read, campusLogo);
  } catch (error) {
    if (!(error instanceof CampusConfigError)) throw error;
    problems.push(...error.problems.map((problem) => `campus file ${error.file}: ${problem}`));
  }
  // The settings that came before campus files win over the file when set (an installation that
  // set them upgrades without editing anything); unset, the campus file's values hold.
  const timeZone = env.CAMPUS_TIME_ZONE ?? campus?.timeZone ?? 'UTC';
  const s3Keys = [env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY];
  if (env.S3_ENDPOINT && !env.S3_BUCKET)
    problems.push('S3_BUCKET: required when S3_ENDPOINT is set');
  if (s3Keys.some(Boolean) && !env.S3_BUCKET)
    problems.push('S3_BUCKET: required with S3 credentials');
  if (env.TEST_CLOCK_OFFSET_DAYS !== undefined && env.NODE_ENV === 'production')
    problems.push('TEST_CLOCK_OFFSET_DAYS: for tests only, refused when NODE_ENV=production');
  if (!isTimeZone(timeZone)) {
    problems.push(
      `CAMPUS_TIME_ZONE: "${env.CAMPUS_TIME_ZONE}" is not a time zone this server knows (an IANA name such as America/New_York)`,
    );
  }
  const termEndDates = (
    env.TERM_END_DATES.trim() ? env.TERM_END_DATES.split(',') : (campus?.termEndDates ?? [])
  )
    .map((d) => d.trim())
    .filter(Boolean);
  for (const date of termEndDates) {
    if (!parseCalendarDate(date)) problems.push(`TERM_END_DATES: ${date} is not a date`);
  }
  // SSO_PROTOCOL unset: the campus file's own provider, when it names one (config/campus-sso.ts).
  if (campus?.sso && source.SSO_PROTOCOL === undefined) {
    const production = source.NODE_ENV === 'production';
    const publicUrl = ssoPublicUrl.replace(/\/+$/, '');
    const fromFile = campusSignOn(campus, { production, publicUrl }, source);
    problems.push(...fromFile.problems.map((problem) => `campus file ${campusFile}: ${problem}`));
    ({ sso, passwordSignUp } = fromFile);
  }
  if (problems.length > 0 || !campus) throw new ConfigError(problems);

  // Read once, at start: the process serves this campus (common/src/active-campus.ts).
  setActiveCampus(campus);
  // "Sign in with <the university>" unless SSO_NAME names the provider otherwise.
  if (sso && sso.name === '') sso.name = campus.name;
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
    campusStatePollMs: env.CAMPUS_STATE_POLL_MS,
    smtpUrl: env.SMTP_URL,
    // MAIL_FROM when set, else the campus file's sender (mail.from), else the default.
    mailFrom:
      source.MAIL_FROM === undefined && campus.mail
        ? campusSender(campus, env.MAIL_FROM)
        : env.MAIL_FROM,
    // Shown as it is (GET /api/campus, pages): the moderators' addresses are kept to trust below.
    campus: shownCampus(campus),
    campusFile,
    campusLogo,
    schoolEmailDomain: env.SCHOOL_EMAIL_DOMAIN ?? campus.emailDomain,
    groupmeLinkPrefix: env.GROUPME_LINK_PREFIX ?? campus.groupme.linkPrefix,
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
      idleScanMs: env.JOBS_IDLE_SCAN_MS,
      leaseMs: env.JOBS_LEASE_MS,
      heartbeatMs: env.JOBS_HEARTBEAT_MS ?? null,
    },
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    shutdownDelayMs: env.SHUTDOWN_DELAY_MS,
    warmUpMs: env.WARM_UP_MS ?? (env.DATABASE_URL ? DEFAULT_WARM_UP_MS : 0),
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
          endsAt: endOfZonedDay(timeZone, parseCalendarDate(date)!),
        }))
        .sort((a, b) => a.endsAt.getTime() - b.endsAt.getTime()),
      reportHideThreshold: env.REPORT_HIDE_THRESHOLD,
      reportMinAccountAgeMs: env.REPORT_MIN_ACCOUNT_AGE_DAYS * 24 * 60 * 60_000,
      reportHidesPerDay: env.REPORT_HIDES_PER_DAY,
      // MODERATOR_EMAILS when set, else the campus file's `moderators`.
      moderatorEmails: env.MODERATOR_EMAILS.trim()
        ? env.MODERATOR_EMAILS.split(',')
            .map((e) => e.trim().toLowerCase())
            .filter(Boolean)
        : (campus.moderators ?? []),
    },
    alerts: { timeZone, digestHour: env.ALERT_DIGEST_HOUR },
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
    cacheMemoryBytes: env.CACHE_MEMORY_MB * 1024 * 1024,
    retention: {
      outboxDays: env.RETENTION_OUTBOX_DAYS,
      searchTermsDays: env.RETENTION_SEARCH_TERMS_DAYS,
    },
    sso,
    passwordSignUp,
    push,
  };
}
