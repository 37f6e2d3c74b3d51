import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths, signInPath, webPaths } from './paths';

describe('paths', () => {
  it('encodes the parameters of a link', () => {
    expect(paths.course('ECON 101/A')).toBe('/course/ECON%20101%2FA');
    expect(paths.listing('a b?c')).toBe('/listing/a%20b%3Fc');
    expect(webPaths.alertsUnsubscribe.href('x+y=')).toBe('/alerts/unsubscribe?token=x%2By%3D');
    expect(signInPath('/listing/1?x=1')).toBe('/sign-in?redirectTo=%2Flisting%2F1%3Fx%3D1');
    expect(signInPath()).toBe('/sign-in');
  });

  it("matches each page's pattern with its own links, and gives back the parameter", () => {
    const samples: Record<string, string[]> = {
      listing: ['42'],
      listingLink: ['tok.en'],
      contactSeller: ['u1'],
      resetPassword: ['t'],
      verifyEmail: ['t'],
      updateListing: ['42'],
      course: ['ECON-101'],
      messageSeller: ['42'],
      conversation: ['c-1'],
      signIn: [],
      alertsUnsubscribe: [],
    };
    for (const [name, page] of Object.entries(webPaths)) {
      const href = (page.href as (...args: string[]) => string)(...(samples[name] ?? []));
      const match = matchPath(page.pattern, href.split('?')[0]!);
      expect(match, `${name}: ${href}`).not.toBeNull();
      const [value] = Object.values(match!.params);
      if (samples[name]?.[0]) expect(value).toBe(samples[name][0]);
    }
  });

  it('keeps an encoded parameter one segment', () => {
    const match = matchPath(webPaths.course.pattern, paths.course('A/B'));
    expect(decodeURIComponent(match!.params.code!)).toBe('A/B');
    expect(matchPath(webPaths.listing.pattern, '/listing/1/extra')).toBeNull();
  });
});
