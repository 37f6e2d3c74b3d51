import { describe, expect, it } from 'vitest';
import { isSameOrigin, normalizeHostName, urlHostKey, urlHostName } from './host-name';

describe('host names: one spelling per host, so no rule is walked around by another', () => {
  it.each([
    ['localhost.', 'localhost'],
    ['localhost..', 'localhost'],
    ['LOCALHOST', 'localhost'],
    ['Push.Example.COM.', 'push.example.com'],
    ['ｌｏｃａｌｈｏｓｔ', 'localhost'],
    ['localhost。', 'localhost'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['XN--BCHER-KVA.example.', 'xn--bcher-kva.example'],
    ['ex%41mple.com', 'example.com'],
    ['127.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['127.0.0.1.', '127.0.0.1'],
    ['127.0.0.1..', '127.0.0.1'],
    ['[::1]', '::1'],
    ['::1', '::1'],
    ['[0:0:0:0:0:0:0:1]', '::1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
  ])('%s is %s', (host, spelling) => {
    expect(normalizeHostName(host)).toBe(spelling);
  });

  it.each(['', '.', '..', 'a.com:81', 'a.com:80', 'a.com/x', 'user@a.com', 'a b.com', '[::1'])(
    '%j is not a host name',
    (host) => {
      expect(normalizeHostName(host)).toBeNull();
    },
  );

  it('reads URLs the same way', () => {
    expect(urlHostName(new URL('https://LocalHost./push'))).toBe('localhost');
    expect(urlHostKey(new URL('https://Covers.Example.:8443/a.jpg'))).toBe('covers.example:8443');
    expect(urlHostKey(new URL('https://[::1]:8443/'))).toBe('[::1]:8443');
    expect(urlHostKey(new URL('https://covers.example:443/'))).toBe('covers.example');
    expect(isSameOrigin(new URL('https://GroupMe.com./x'), new URL('https://groupme.com/'))).toBe(
      true,
    );
    expect(isSameOrigin(new URL('http://groupme.com/x'), new URL('https://groupme.com/'))).toBe(
      false,
    );
    expect(
      isSameOrigin(new URL('https://groupme.com:8443/'), new URL('https://groupme.com/')),
    ).toBe(false);
    expect(
      isSameOrigin(new URL('https://groupme.com.evil.example/'), new URL('https://groupme.com/')),
    ).toBe(false);
  });
});
