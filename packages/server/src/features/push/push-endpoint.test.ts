import { describe, expect, it } from 'vitest';
import { isAllowedEndpoint, isPrivateAddress, publicOnlyLookup } from './push-endpoint';

describe('push endpoints: https on public hosts only (no requests into the server’s own network)', () => {
  it('accepts the push services’ https endpoints', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGuQyavXutnMH',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAA',
      'https://8.8.8.8/push',
    ]) {
      expect(isAllowedEndpoint(endpoint, false), endpoint).toBe(true);
    }
  });

  it('refuses http, credentials, loopback, private, link-local and single-label hosts', () => {
    for (const endpoint of [
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://user:pass@fcm.googleapis.com/x',
      'https://localhost/push',
      'https://push.localhost/push',
      'https://intranet/push',
      'https://127.0.0.1/push',
      'https://localhost./push',
      'https://127.1/push',
      'https://[::127.0.0.1]/push',
      'https://10.1.2.3/push',
      'https://172.16.0.1/push',
      'https://192.168.1.1/push',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/push',
      'https://0.0.0.0/push',
      'https://[::1]/push',
      'https://[fd00::1]/push',
      'https://[fe80::1]/push',
      'https://[::ffff:127.0.0.1]/push',
      'ftp://fcm.googleapis.com/x',
      'not a url',
    ]) {
      expect(isAllowedEndpoint(endpoint, false), endpoint).toBe(false);
    }
  });

  it('with the test-only setting, a local http stand-in is allowed', () => {
    expect(isAllowedEndpoint('http://127.0.0.1:4000/push/x', true)).toBe(true);
    expect(isAllowedEndpoint('ftp://127.0.0.1/x', true)).toBe(false);
  });

  it('classifies addresses', () => {
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('2a00:1450:4001::200e')).toBe(false);
    expect(isPrivateAddress('127.0.0.1')).toBe(true);
    expect(isPrivateAddress('::1')).toBe(true);
    expect(isPrivateAddress('not an address')).toBe(true);
  });

  it('at send time, a name that resolves to a private address is refused', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      publicOnlyLookup('localhost', {}, (err) => resolve(err)),
    );
    expect(error?.code).toBe('EPRIVATEADDRESS');
  });
});
