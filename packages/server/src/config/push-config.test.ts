import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { generateVapidKeys } from './push-config';
import { temporaryFolder } from '../../test/temporary-folders';

const dataDir = temporaryFolder('cb-push-config-');
const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(32), ...env });
    return [];
  } catch (error) {
    return (error as { problems: string[] }).problems;
  }
};

describe('push settings', () => {
  it('defaults: keys from DATA_DIR, the contact from MAIL_FROM', () => {
    const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(32) });
    expect(config.push).toEqual({
      vapid: null,
      subject: 'mailto:no-reply@localhost',
      testEndpoints: false,
    });
  });

  it('takes a configured key pair and contact, shared by every app server', () => {
    const keys = generateVapidKeys();
    const config = loadConfig({
      DATA_DIR: dataDir,
      SESSION_SECRET: 'x'.repeat(32),
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'https://books.example.edu/contact',
    });
    expect(config.push.vapid).toEqual(keys);
    expect(config.push.subject).toBe('https://books.example.edu/contact');
  });

  it('lists every problem: half a pair, keys that are not a pair, a bad contact, test endpoints in production', () => {
    const a = generateVapidKeys();
    const b = generateVapidKeys();
    expect(problemsOf({ VAPID_PUBLIC_KEY: a.publicKey })).toEqual([
      expect.stringContaining('set both, or neither'),
    ]);
    expect(problemsOf({ VAPID_PUBLIC_KEY: a.publicKey, VAPID_PRIVATE_KEY: b.privateKey })).toEqual([
      expect.stringContaining('must be a P-256 key pair'),
    ]);
    expect(problemsOf({ VAPID_SUBJECT: 'http://example.com' })).toEqual([
      expect.stringContaining('VAPID_SUBJECT'),
    ]);
    expect(problemsOf({ NODE_ENV: 'production', PUSH_TEST_ENDPOINTS: 'on' })).toEqual([
      expect.stringContaining('refused when NODE_ENV=production'),
    ]);
  });

  it('checks the settings against their schema: on or off, blank as unset', () => {
    expect(problemsOf({ PUSH_TEST_ENDPOINTS: 'yes' })).toEqual([
      'PUSH_TEST_ENDPOINTS: must be on or off',
    ]);
    const config = loadConfig({
      DATA_DIR: dataDir,
      SESSION_SECRET: 'x'.repeat(32),
      VAPID_PUBLIC_KEY: ' ',
      VAPID_SUBJECT: '',
      PUSH_TEST_ENDPOINTS: ' on ',
    });
    expect(config.push).toEqual({
      vapid: null,
      subject: 'mailto:no-reply@localhost',
      testEndpoints: true,
    });
  });
});
