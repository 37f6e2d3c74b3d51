import { describe, expect, it } from 'vitest';
import { describeScope, isNotificationKind, scopeOf } from './unsubscribe-scope';

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

  it('names the mails of a kind: unread messages, the end of term, meetups, ratings', () => {
    expect(describeScope(scopeOf(token({ a: [], m: 1, u: 'u', x: 1 })))).toBe(
      'the messages you have not read',
    );
    expect(describeScope(scopeOf(token({ a: [], t: 1, u: 'u', x: 1 })))).toBe(
      'the courses you can sell into at the end of a term',
    );
    const meetups = scopeOf(token({ a: [], k: ['meetups', 'nonsense'], u: 'u', x: 1 }));
    expect(describeScope(meetups)).toBe('meetups');
    expect(isNotificationKind(meetups)).toBe(true);
    expect(isNotificationKind(scopeOf(token({ a: ['x'], u: 'u', x: 1 })))).toBe(false);
  });

  it('falls back to "this alert" for a damaged token (the server refuses it on the button)', () => {
    expect(describeScope(scopeOf('not a token'))).toBe('this alert');
    expect(describeScope(scopeOf(''))).toBe('this alert');
  });
});
