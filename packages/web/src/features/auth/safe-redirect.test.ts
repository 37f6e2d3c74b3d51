import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './safe-redirect';

describe('safeRedirectPath', () => {
  it('keeps a path on this site, with its query and hash', () => {
    expect(safeRedirectPath('/profile')).toBe('/profile');
    expect(safeRedirectPath('/update-listing/abc?x=1#top')).toBe('/update-listing/abc?x=1#top');
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
  ])('refuses %j, which would leave the site', (value) => {
    expect(safeRedirectPath(value)).toBe('/');
  });
});
