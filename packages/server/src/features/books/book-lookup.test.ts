import { describe, expect, it } from 'vitest';
import { coverHostsOf, coverOn } from './book-lookup';

describe('covers come only from the covers host, whatever its spelling', () => {
  const base = 'https://covers.openlibrary.org';

  it('takes a cover on the host however its name is written, upgraded to the host’s scheme', () => {
    expect(coverOn('http://covers.openlibrary.org/b/id/1-L.jpg', base)).toBe(
      'https://covers.openlibrary.org/b/id/1-L.jpg',
    );
    expect(coverOn('https://Covers.OpenLibrary.org./b/id/1-L.jpg', base)).not.toBeNull();
  });

  it.each([
    'https://covers.openlibrary.org.evil.example/b/id/1-L.jpg',
    'https://evil.example/covers.openlibrary.org/1.jpg',
    'https://covers.openlibrary.org:8443/b/id/1-L.jpg',
    'ftp://covers.openlibrary.org/b/id/1-L.jpg',
    'not a url',
  ])('refuses %s', (url) => {
    expect(coverOn(url, base)).toBeNull();
  });

  it('names the covers host in the spelling the cover import compares', () => {
    expect(coverHostsOf('https://Covers.Example.:8443/')).toEqual(['covers.example:8443']);
    expect(coverHostsOf(base)).toEqual(['covers.openlibrary.org']);
  });
});
