import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('initials', () => {
  it('takes the first and last names first letters', () => {
    expect(initials('Maya P.')).toBe('MP');
    expect(initials('Demo Student')).toBe('DS');
    expect(initials('jordan')).toBe('J');
    expect(initials('')).toBe('?');
  });
});
