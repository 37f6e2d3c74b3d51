import { describe, expect, it } from 'vitest';
import { describeScope, scopeOf } from './unsubscribe-scope';

/** A token's shape as the server signs it (features/alerts/unsubscribe-token.ts), signature aside. */
const token = (body: object) =>
  `${btoa(JSON.stringify(body)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.sig`;

describe('the unsubscribe page reads what a link stops', () => {
  it('names one alert, several, the saved-listing mails, or both', () => {
    expect(describeScope(scopeOf(token({ a: ['x'], u: 'u', x: 1 })))).toBe('this alert');
    expect(describeScope(scopeOf(token({ a: ['x', 'y'], u: 'u', x: 1 })))).toBe('these 2 alerts');
    expect(describeScope(scopeOf(token({ a: [], s: 1, u: 'u', x: 1 })))).toBe(
      'your saved listings (price drops and sales)',
    );
    expect(describeScope(scopeOf(token({ a: ['x'], s: 1, u: 'u', x: 1 })))).toBe(
      'this alert and your saved listings (price drops and sales)',
    );
  });

  it('falls back to "this alert" for a damaged token (the server refuses it on the button)', () => {
    expect(describeScope(scopeOf('not a token'))).toBe('this alert');
    expect(describeScope(scopeOf(''))).toBe('this alert');
  });
});
