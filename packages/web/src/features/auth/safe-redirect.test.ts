import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './safe-redirect';

describe('safeRedirectPath', () => {
  it('keeps a path on this site, with its query and hash', () => {
    expect(safeRedirectPath('/profile')).toBe('/profile');
    expect(safeRedirectPath('/update-listing/abc?x=1#top')).toBe('/update-listing/abc?x=1#top');
  });

  it.each([
    ['/./profile', '/profile'],
    ['/a/../profile?x=1', '/profile?x=1'],
    ['/search?searchTerm=%2F%2Fevil.example', '/search?searchTerm=%2F%2Fevil.example'],
    ['/listing/abc#//evil.example', '/listing/abc#//evil.example'],
    ['/%09/profile', '/%09/profile'],
  ])('keeps %j as the normalised path %j', (value, expected) => {
    expect(safeRedirectPath(value)).toBe(expected);
    // What it gives back stays on whatever origin the app runs at.
    expect(new URL(expected, 'https://books.example').origin).toBe('https://books.example');
  });

  it('falls back to home when there is nothing to go back to', () => {
    expect(safeRedirectPath(null)).toBe('/');
    expect(safeRedirectPath(undefined)).toBe('/');
    expect(safeRedirectPath('')).toBe('/');
  });

  it.each([
    'https://evil.example/',
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'javascript:alert(1)',
    'profile',
    // Dot segments and encoded dots collapse to '//host' once the path is normalised.
    '/.//evil.example',
    '/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/./\\evil.example',
    '/a/..//evil.example',
    '/\\evil.example/path',
    '%2F%2Fevil.example',
    '/.\t//evil.example',
    '/.\n//evil.example',
    '/\t.//evil.example',
    ' //evil.example',
  ])('refuses %j, which would leave the site', (value) => {
    expect(safeRedirectPath(value)).toBe('/');
  });
});
