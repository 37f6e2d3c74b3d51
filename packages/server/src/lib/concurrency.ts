/**
 * Runs at most `slots` of the tasks given to it at once; the others wait their turn, first come first
 * served. A finished task (resolved or rejected) hands its slot to the next in line.
 */
export function limitConcurrency(slots: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running < slots) running += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
