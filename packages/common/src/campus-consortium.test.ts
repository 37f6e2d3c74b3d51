import { describe, expect, it } from 'vitest';
import { campusConfigSchema, campusProblems } from './campus-config';
import { consortiumProblems, isSharing, sharingPartners } from './campus-consortium';

const minimal = {
  name: 'Example University',
  timeZone: 'America/New_York',
  schools: [{ key: 'arts', label: 'Arts' }],
};

const campus = (key: string, share?: string[]) => ({
  key,
  config: share ? { consortium: { share } } : {},
});

describe("the campus file's consortium section", () => {
  it('takes campus keys, each once, and nothing else', () => {
    const parsed = campusConfigSchema.parse({ ...minimal, consortium: { share: ['beta'] } });
    expect(parsed.consortium).toEqual({ share: ['beta'] });
    expect(campusConfigSchema.parse(minimal).consortium).toBeUndefined();

    const bad = campusConfigSchema.safeParse({
      ...minimal,
      consortium: { share: ['Beta', 'gamma', 'gamma'], with: [] },
    });
    expect(bad.success).toBe(false);
    const problems = campusProblems(bad.error!);
    expect(problems).toContain('consortium: not a field of the campus file: "with"');
    expect(problems.some((p) => p.startsWith('consortium.share.0: a campus key'))).toBe(true);
    expect(problems).toContain('consortium.share.2: "gamma" is listed twice');
  });

  it('shares only between two campuses that each name the other', () => {
    const alpha = campus('alpha', ['beta', 'gamma']);
    const beta = campus('beta', ['alpha']);
    const gamma = campus('gamma');
    expect(isSharing(alpha, beta)).toBe(true);
    expect(isSharing(beta, alpha)).toBe(true);
    expect(isSharing(alpha, gamma)).toBe(false);
    expect(isSharing(gamma, alpha)).toBe(false);
    expect(sharingPartners(alpha, [alpha, beta, gamma])).toEqual([beta]);
    expect(sharingPartners(gamma, [alpha, beta, gamma])).toEqual([]);
  });

  it('names each one-sided, unknown or own key', () => {
    expect(
      consortiumProblems([
        campus('alpha', ['beta', 'gamma', 'delta']),
        campus('beta', ['alpha']),
        campus('gamma', ['gamma']),
      ]),
    ).toEqual([
      'campus "alpha" shares with "gamma", which does not share back: nothing is shared until it names "alpha"',
      'campus "alpha" shares with "delta", which is no campus here',
      'campus "gamma" names itself in consortium.share',
    ]);
  });
});
