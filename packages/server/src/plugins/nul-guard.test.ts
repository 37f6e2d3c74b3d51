import { describe, expect, it } from 'vitest';
import { findNul } from './nul-guard';

describe('findNul', () => {
  it('names the first field holding a NUL, in keys too', () => {
    expect(findNul({ a: 'x', b: ['y', 'z\0'] })).toBe('b.1');
    expect(findNul({ 'k\0': 1 })).toBe('k\\u0000');
    expect(findNul({ a: 'clean', b: [1, null, true] })).toBeUndefined();
  });

  it('walks 10,000-deep and 130,000-wide bodies without overflowing the stack', () => {
    let deep: unknown = 'x\0';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(findNul({ a: deep })).toBe(`a${'.0'.repeat(10_000)}`);
    const wide = JSON.parse(`[${Array(130_000).fill('0').join(',')},"a\\u0000"]`) as unknown;
    expect(findNul(wide)).toBe('130000');
  });

  it('leaves buffers alone (tus chunks are not text)', () => {
    expect(findNul(Buffer.from([0, 0, 0]))).toBeUndefined();
  });
});
