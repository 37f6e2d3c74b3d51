import { describe, expect, it } from 'vitest';
import { limitConcurrency } from './concurrency';

/** A task the test finishes by hand, recording when it started. */
function deferredTask(log: number[], id: number, state: { running: number; most: number }) {
  let finish!: (ok: boolean) => void;
  const done = new Promise<boolean>((resolve) => (finish = resolve));
  const task = async () => {
    log.push(id);
    state.running += 1;
    state.most = Math.max(state.most, state.running);
    const ok = await done;
    state.running -= 1;
    if (!ok) throw new Error(`task ${id} failed`);
    return id;
  };
  return { task, finish };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('limitConcurrency', () => {
  it('runs at most the given number at once, the rest in the order they came', async () => {
    const run = limitConcurrency(2);
    const log: number[] = [];
    const state = { running: 0, most: 0 };
    const tasks = Array.from({ length: 6 }, (_, i) => deferredTask(log, i, state));
    const results = tasks.map((t) => run(t.task));
    await settle();
    expect(log).toEqual([0, 1]);
    tasks[1]!.finish(true);
    await settle();
    expect(log).toEqual([0, 1, 2]);
    // A failed task gives its slot on too.
    tasks[0]!.finish(false);
    await expect(results[0]).rejects.toThrow('task 0 failed');
    await settle();
    expect(log).toEqual([0, 1, 2, 3]);
    for (const t of tasks.slice(2)) t.finish(true);
    expect(await Promise.all(results.slice(1))).toEqual([1, 2, 3, 4, 5]);
    expect(log).toEqual([0, 1, 2, 3, 4, 5]);
    expect(state.most).toBe(2);
  });

  it('starts a task at once while a slot is free', async () => {
    const run = limitConcurrency(1);
    expect(await run(async () => 'first')).toBe('first');
    expect(await run(async () => 'second')).toBe('second');
  });
});
