import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_GROUPME_LINK_PREFIX } from '@campus-books/common/constants';

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

const attemptCount = z.coerce.number().int().min(1).max(1_000_000);

/** The environment the product reads (product-decisions.md, "Configuration"). */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: urlWithScheme(['http', 'https'], 'web').optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: urlWithScheme(['postgres', 'postgresql'], 'PostgreSQL').optional(),
  SMTP_URL: urlWithScheme(['smtp', 'smtps'], 'SMTP').optional(),
  MAIL_FROM: z.string().default('Textbook Marketplace <no-reply@localhost>'),
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
  // Attempts per window on the account routes (features/auth); the e2e suite raises them.
  RATE_LIMIT_WINDOW_MINUTES: attemptCount.default(15),
  RATE_LIMIT_SIGNIN_PER_IP: attemptCount.default(20),
  RATE_LIMIT_SIGNIN_PER_ACCOUNT: attemptCount.default(10),
  RATE_LIMIT_SIGNUP_PER_IP: attemptCount.default(10),
  RATE_LIMIT_MAIL_PER_IP: attemptCount.default(10),
  RATE_LIMIT_MAIL_PER_ADDRESS: attemptCount.default(5),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
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
  /** Whether cookies get the Secure flag: true when PUBLIC_URL is https. */
  secureCookies: boolean;
  rateLimits: RateLimits;
}

/** Attempts allowed per window; "mail" covers sign-up, forgot-password and resend-verification. */
export interface RateLimits {
  windowMs: number;
  signInPerIp: number;
  signInPerAccount: number;
  signUpPerIp: number;
  mailPerIp: number;
  mailPerAddress: number;
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
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`),
    );
  }
  const env = parsed.data;
  const problems: string[] = [];
  const s3Keys = [env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY];
  if (env.S3_ENDPOINT && !env.S3_BUCKET)
    problems.push('S3_BUCKET: required when S3_ENDPOINT is set');
  if (s3Keys.some(Boolean) && !env.S3_BUCKET)
    problems.push('S3_BUCKET: required with S3 credentials');
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
    secureCookies: publicUrl.startsWith('https://'),
    rateLimits: {
      windowMs: env.RATE_LIMIT_WINDOW_MINUTES * 60_000,
      signInPerIp: env.RATE_LIMIT_SIGNIN_PER_IP,
      signInPerAccount: env.RATE_LIMIT_SIGNIN_PER_ACCOUNT,
      signUpPerIp: env.RATE_LIMIT_SIGNUP_PER_IP,
      mailPerIp: env.RATE_LIMIT_MAIL_PER_IP,
      mailPerAddress: env.RATE_LIMIT_MAIL_PER_ADDRESS,
    },
  };
}
