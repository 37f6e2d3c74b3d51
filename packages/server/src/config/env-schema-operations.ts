import { z } from 'zod';
import { DEFAULT_CACHE_MEMORY_MB } from '../campuses/campus-cache-scope';
import { DEFAULT_PASSWORD_THREAD_NICE } from '../features/accounts/password';

// The settings of running the product (limits, jobs, retention, performance, observability, and the
// test suites' knobs): sections of the environment schema (env-schema.ts) of their own file.

const attemptCount = z.coerce.number().int().min(1).max(1_000_000);

export const limitSettings = z.object({
  RATE_LIMIT_WINDOW_MINUTES: attemptCount
    .default(60)
    .describe('The window of the attempt limits below (docs/api/accounts.md, "Rate limits").'),
  RATE_LIMIT_SIGNIN_PER_IP: attemptCount
    .default(500)
    .describe(
      'Failed sign-ins from one address per window before it must solve a challenge (campus NAT).',
    ),
  RATE_LIMIT_SIGNIN_PER_ACCOUNT: attemptCount
    .default(100)
    .describe(
      'Failed sign-ins on one account per window before it refuses devices it does not know.',
    ),
  RATE_LIMIT_SIGNUP_PER_IP: attemptCount
    .default(500)
    .describe('Sign-ups from one address per window before it must solve a challenge.'),
  RATE_LIMIT_MAIL_PER_IP: attemptCount
    .default(200)
    .describe('Reset and verification mails asked for from one client address per window.'),
  RATE_LIMIT_MAIL_PER_ADDRESS: attemptCount
    .default(5)
    .describe('Reset and verification mails to one e-mail address per window.'),
  RATE_LIMIT_LISTINGS_PER_ACCOUNT: attemptCount
    .default(20)
    .describe('Listings one account may create per hour.'),
  RATE_LIMIT_CONVERSATIONS_PER_HOUR: attemptCount
    .default(30)
    .describe('Conversations one account may open per hour (then 429).'),
  RATE_LIMIT_MESSAGES_PER_MINUTE: attemptCount
    .default(30)
    .describe('Messages and offers one account may send per minute (then 429).'),
  ALTCHA_COST: attemptCount
    .default(1000)
    .describe("The challenge's difficulty: PBKDF2 iterations per try (seconds in a browser)."),
  ALTCHA_MAX_COUNTER: attemptCount.default(10_000).describe("The challenge's highest try."),
});

export const jobSettings = z.object({
  JOBS_POLL_MS: z.coerce
    .number()
    .int()
    .min(50)
    .max(3_600_000)
    .default(5_000)
    .describe('How often a server looks for due background jobs (src/jobs).'),
  JOBS_IDLE_SCAN_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(3_600_000)
    .default(30_000)
    .describe(
      "A many-campus installation: how often a server looks at every campus's jobs all the same. Between those looks it asks only the campuses an enqueue's NOTIFY named and those whose next job is due by what it last read (decision 024).",
    ),
  JOBS_LEASE_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(3_600_000)
    .default(300_000)
    .describe('How long a server that died holds the job it was running.'),
  HOLD_CHECK_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(86_400_000)
    .default(300_000)
    .describe('How often the hold job ends the holds whose time is over.'),
  MESSAGE_MAIL_CHECK_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(3_600_000)
    .default(60_000)
    .describe('How often the message-mail job looks for unread messages to mail.'),
  RATING_PROMPT_CHECK_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(86_400_000)
    .default(60_000)
    .describe('How often the job that asks both students of a new exchange to rate it runs.'),
  LISTING_EXPIRY_CHECK_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(86_400_000)
    .default(900_000)
    .describe(
      'How often the expiry job expires the listings that are due and mails the reminders (the browser tests: seconds).',
    ),
  SHUTDOWN_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(600_000)
    .default(0)
    .describe(
      'On SIGTERM, serve this long with `/api/health` at 503 before closing the socket, so a load balancer takes the server out (0 without a balancer).',
    ),
  WARM_UP_MS: z.coerce.number().int().min(0).max(60_000).optional().meta({
    unset: '`1500` with `DATABASE_URL`, `0` on the embedded database',
    description:
      'Before listening, the server answers its own health check over the loopback this long, so its first seconds of traffic find the request path compiled (docs/operations.md, "Starting and stopping"). On by default on PostgreSQL, where a balancer sends a server traffic once it listens; off on the embedded database, one server whose start people wait for. 0: off.',
  }),
  SHUTDOWN_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(600_000)
    .default(10_000)
    .describe('Then wait this long for requests and jobs in flight before exiting anyway.'),
});

export const retentionSettings = z.object({
  RETENTION_OUTBOX_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(30)
    .describe(
      'Mail copies in `DATA_DIR/outbox` are removed after this many days (docs/operations.md, "Retention").',
    ),
  RETENTION_SEARCH_TERMS_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(365)
    .describe('The day counts of searches that found nothing are removed after this many days.'),
});

export const performanceSettings = z.object({
  CACHE_MEMORY_MB: z.coerce
    .number()
    .int()
    .min(1)
    .max(262_144)
    .default(DEFAULT_CACHE_MEMORY_MB)
    .describe(
      "Several campuses (decision 024): memory the in-memory caches (search and course answers, signed-out pages…) of the directory's campuses share. Each campus keeps one campus's limits (`PAGE_CACHE_MB` for its pages); past this, the least recently served campus's part of a cache is dropped. The default campus's caches keep their own limits, as in a single-campus installation.",
    ),
  PAGE_CACHE_MB: z.coerce
    .number()
    .int()
    .min(0)
    .max(4096)
    .default(64)
    .describe(
      'Memory for the rendered pages of signed-out visitors (`/`, `/search?…`, `/listing/{id}`, `/course/{code}`), kept until the catalogue changes or for a minute; `0` renders every visit.',
    ),
  PASSWORD_THREAD_NICE: z.coerce
    .number()
    .int()
    .min(0)
    .max(19)
    .default(DEFAULT_PASSWORD_THREAD_NICE)
    .describe(
      "The nice value of the threads that hash and check passwords: a wave of sign-ins leaves the other requests most of a busy core; `0` runs them at the requests' priority.",
    ),
  STREAM_HEARTBEAT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(300_000)
    .default(25_000)
    .describe(
      'How often a live event stream (`/api/conversations/events`) sends a comment line, so proxies keep an idle stream open (keep it under their idle time-outs).',
    ),
});

export const observabilitySettings = z.object({
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe(
      'The level of the JSON log; unset in a terminal, the server prints one start line, then warnings.',
    ),
  METRICS: z
    .enum(['on', 'off'])
    .default('off')
    .describe(
      '`on`: Prometheus metrics at `/metrics`, for a bearer token (docs/operations.md, "Metrics").',
    ),
  METRICS_TOKEN: z.string().trim().min(32, 'must be at least 32 characters').optional().meta({
    unset: 'generated once into `DATA_DIR/metrics-token`',
    description:
      'The bearer token `/metrics` asks for (at least 32 characters); one value on every app server.',
  }),
});

/** Knobs the test suites turn; no deployment sets them. */
export const testSettings = z.object({
  TEST_CLOCK_OFFSET_DAYS: z.coerce.number().int().min(0).max(3650).optional().meta({
    unset: '`0`',
    description:
      "The app's clock (`app.jobs.now()`: expiry, reminders, links) runs this many days ahead, so a browser test can restart a server past its listings' expiry. Refused when `NODE_ENV=production`.",
  }),
  JOBS_HEARTBEAT_MS: z.coerce.number().int().min(100).max(3_600_000).optional().meta({
    unset: 'no such job',
    description:
      'A recurring no-op background job, run this often, that records each run: the load-balancer test counts them.',
  }),
});
