import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_WARM_UP_MS, loadConfig } from './config';

describe('loadConfig', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cb-config-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('gives a working local product with no configuration at all', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      databasePoolSize: 30,
      smtpUrl: undefined,
      schoolEmailDomain: null,
      groupmeLinkPrefix: 'https://groupme.com/',
      s3: undefined,
      donationUrl: null,
      secureCookies: false,
    });
  });

  it('generates the session secret once and keeps it in DATA_DIR', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dataDir, 'session-secret'), 'utf8').trim()).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(first);
  });

  it('uses a configured secret without writing one', () => {
    const dataDir = tempDir();
    const secret = 'x'.repeat(40);
    expect(loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: secret }).sessionSecret).toBe(secret);
    expect(existsSync(path.join(dataDir, 'session-secret'))).toBe(false);
  });

  it('names every problem of a bad configuration in one error', () => {
    const bad = {
      DATA_DIR: tempDir(),
      PORT: 'eighty',
      DATABASE_URL: 'mysql://db/x',
      DATABASE_POOL_SIZE: '2',
      SMTP_URL: 'http://mail',
      SCHOOL_EMAIL_DOMAIN: 'not a domain',
      GROUPME_LINK_PREFIX: 'javascript:alert(1)',
      SESSION_SECRET: 'short',
    };
    let error: unknown;
    try {
      loadConfig(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'DATABASE_POOL_SIZE',
      'SMTP_URL',
      'SCHOOL_EMAIL_DOMAIN',
      'GROUPME_LINK_PREFIX',
      'SESSION_SECRET',
    ]) {
      expect(problems).toContain(name);
    }
  });

  it('reads the digest hour in the campus time zone, and names a zone it does not know', () => {
    const base = { NODE_ENV: 'test', DATA_DIR: tempDir() };
    expect(loadConfig(base).alerts).toEqual({ timeZone: 'America/New_York', digestHour: 7 });
    expect(
      loadConfig({ ...base, CAMPUS_TIME_ZONE: 'Europe/Berlin', ALERT_DIGEST_HOUR: '0' }).alerts,
    ).toEqual({ timeZone: 'Europe/Berlin', digestHour: 0 });
    expect(() => loadConfig({ ...base, CAMPUS_TIME_ZONE: 'America/New_Yrok' })).toThrow(
      /CAMPUS_TIME_ZONE: "America\/New_Yrok" is not a time zone/,
    );
    for (const hour of ['24', '-1', '7.5', 'seven']) {
      expect(() => loadConfig({ ...base, ALERT_DIGEST_HOUR: hour }), hour).toThrow(
        /ALERT_DIGEST_HOUR/,
      );
    }
  });

  it('reads the term end dates in the campus time zone, and names one the calendar has not', () => {
    const base = { NODE_ENV: 'test', DATA_DIR: tempDir(), TERM_END_DATES: '2027-12-18,2027-05-08' };
    expect(loadConfig({ ...base, CAMPUS_TIME_ZONE: 'America/Los_Angeles' }).trust.termEnds).toEqual(
      [
        { date: '2027-05-08', endsAt: new Date('2027-05-09T06:59:59Z') },
        { date: '2027-12-18', endsAt: new Date('2027-12-19T07:59:59Z') },
      ],
    );
    expect(loadConfig(base).trust.termEnds.map((end) => end.endsAt.toISOString())).toEqual([
      '2027-05-09T03:59:59.000Z',
      '2027-12-19T04:59:59.000Z',
    ]);
    expect(() => loadConfig({ ...base, TERM_END_DATES: '2027-05-08,2027-02-30' })).toThrow(
      /TERM_END_DATES: 2027-02-30 is not a date/,
    );
  });

  it('marks cookies Secure when the public URL is https', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: 'https://books.example.edu/' });
    expect(config.secureCookies).toBe(true);
    expect(config.publicUrl).toBe('https://books.example.edu');
  });

  it('moves the app clock on only outside production (a test-only setting)', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).clockOffsetMs).toBe(0);
    expect(
      loadConfig({ DATA_DIR: tempDir(), NODE_ENV: 'development', TEST_CLOCK_OFFSET_DAYS: '61' })
        .clockOffsetMs,
    ).toBe(61 * 24 * 60 * 60_000);
    for (const days of ['61', '0']) {
      expect(() =>
        loadConfig({ DATA_DIR: tempDir(), NODE_ENV: 'production', TEST_CLOCK_OFFSET_DAYS: days }),
      ).toThrow(/TEST_CLOCK_OFFSET_DAYS: for tests only/);
    }
  });

  it('warms up before listening on PostgreSQL by default, not on the embedded database', () => {
    const dataDir = tempDir();
    const url = 'postgres://db.example/books';
    expect(loadConfig({ DATA_DIR: dataDir }).warmUpMs).toBe(0);
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url }).warmUpMs).toBe(DEFAULT_WARM_UP_MS);
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, WARM_UP_MS: '0' }).warmUpMs).toBe(0);
    expect(loadConfig({ DATA_DIR: dataDir, WARM_UP_MS: '500' }).warmUpMs).toBe(500);
    expect(() => loadConfig({ DATA_DIR: dataDir, WARM_UP_MS: '-1' })).toThrow(/WARM_UP_MS/);
  });

  it('configures S3 only with a bucket', () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      /S3_BUCKET/,
    );
    const config = loadConfig({ DATA_DIR: tempDir(), S3_BUCKET: 'books' });
    expect(config.s3).toMatchObject({ bucket: 'books', region: 'us-east-1' });
  });
});
