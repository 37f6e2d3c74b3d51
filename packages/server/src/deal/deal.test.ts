import { describe, expect, it } from 'vitest';
import { isRevealed, participantRole, partyOf, revealedSoldBefore, roleOf } from './deal';

const parties = { sellerId: 'seller-1', buyerId: 'buyer-1' };
const DAY = 24 * 60 * 60_000;

describe('the deal', () => {
  it('names the side of each of its two students, and no side for anyone else', () => {
    expect(roleOf('seller-1', parties)).toBe('seller');
    expect(roleOf('buyer-1', parties)).toBe('buyer');
    expect(roleOf('someone-else', parties)).toBeNull();
    expect(roleOf(null, parties)).toBeNull();
    // A deleted account's side is empty: nobody (not even a null id) takes it.
    expect(roleOf(null, { sellerId: null, buyerId: 'buyer-1' })).toBeNull();
    expect(roleOf('buyer-1', { sellerId: null, buyerId: 'buyer-1' })).toBe('buyer');
    expect(() => participantRole('someone-else', parties)).toThrow();
    expect(partyOf('seller', parties)).toBe('seller-1');
  });

  it('shows ratings once both rated, or RATING_REVEAL_DAYS after the sale, not before', () => {
    const soldAt = new Date('2026-05-01T12:00:00Z');
    const at = (ms: number) => new Date(soldAt.getTime() + ms);
    const revealMs = 14 * DAY;
    expect(isRevealed({ ratingsGiven: 1, soldAt, now: at(revealMs - 1), revealMs })).toBe(false);
    expect(isRevealed({ ratingsGiven: 1, soldAt, now: at(revealMs), revealMs })).toBe(true);
    expect(isRevealed({ ratingsGiven: 2, soldAt, now: at(0), revealMs })).toBe(true);
    expect(isRevealed({ ratingsGiven: 0, soldAt, now: at(0), revealMs })).toBe(false);
    // The SQL form's bound: a sale at or before it is revealed, as isRevealed says.
    expect(revealedSoldBefore(at(revealMs), revealMs)).toEqual(soldAt);
  });
});
