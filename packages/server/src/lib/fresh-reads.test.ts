import { describe, expect, it } from 'vitest';
import { sharedFreshReads } from './fresh-reads';

/** A read whose answers the test gives: each call starts a read numbered in order. */
function controlledReads() {
  const started: Array<{ resolve(value: number): void; reject(error: Error): void }> = [];
  const read = () =>
    new Promise<number>((resolve, reject) => {
      started.push({ resolve, reject });
    });
  return { started, read };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('reads shared by callers arriving together (sharedFreshReads)', () => {
  it('starts a read for a first caller; callers during it share the next one, started after it', async () => {
    const { started, read } = controlledReads();
    const current = sharedFreshReads(read);
    const first = current();
    expect(started).toHaveLength(1);
    const during = [current(), current(), current()];
    // Nothing more starts while the first is in flight: the next waits for it.
    await tick();
    expect(started).toHaveLength(1);
    started[0]!.resolve(1);
    expect(await first).toBe(1);
    await tick();
    expect(started).toHaveLength(2);
    started[1]!.resolve(2);
    // Never the read that was in flight when they arrived.
    expect(await Promise.all(during)).toEqual([2, 2, 2]);
    // Quiet again: the next caller starts a read at once.
    const later = current();
    expect(started).toHaveLength(3);
    started[2]!.resolve(3);
    expect(await later).toBe(3);
  });

  it('fails only the callers of a failed read; the next read serves the others', async () => {
    const { started, read } = controlledReads();
    const current = sharedFreshReads(read);
    const first = current();
    const second = current();
    started[0]!.reject(new Error('down'));
    await expect(first).rejects.toThrow('down');
    await tick();
    started[1]!.resolve(7);
    expect(await second).toBe(7);
    const third = current();
    started[2]!.reject(new Error('down again'));
    await expect(third).rejects.toThrow('down again');
  });

  it('under 25 callers at once, runs two reads, not 25', async () => {
    let reads = 0;
    const current = sharedFreshReads(async () => {
      reads += 1;
      await tick();
      return reads;
    });
    const answers = await Promise.all(Array.from({ length: 25 }, () => current()));
    expect(reads).toBe(2);
    expect(answers[0]).toBe(1);
    expect(new Set(answers.slice(1))).toEqual(new Set([2]));
  });
});
