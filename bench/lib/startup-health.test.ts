import { describe, expect, it } from 'vitest';
import type { BenchOptions } from './options';
import type { BenchResult, StartHealth } from './results';
import { checkStartupBudgets } from './startup-health';

const window = (requestsPerSecond: number, errors = 0) => ({ requestsPerSecond, p99: 20, errors });

const result = (runs: { size: number; startHealth?: StartHealth }[]): BenchResult => ({
  startedAt: '2026-12-02T00:00:00.000Z',
  command: 'npm run bench',
  options: { scenarios: null } as BenchOptions,
  machine: {} as BenchResult['machine'],
  runs: runs.map((r) => ({
    engine: 'pglite' as const,
    seed: {} as BenchResult['runs'][number]['seed'],
    readySeconds: 1,
    signIn: 'ok',
    rows: [],
    writeCheck: null,
    ...r,
  })),
  lighthouse: null,
  fanOut: [],
  messageStreams: null,
  budgets: [],
});

describe("health in a restarted server's first seconds", () => {
  it('passes at ≥ 0.8 × the later rate, with its margin, and fails below', () => {
    const [pass] = checkStartupBudgets(
      result([
        {
          size: 100_000,
          startHealth: { start: window(4500), later: window(5000), readySeconds: 1.2 },
        },
      ]),
    );
    expect(pass!.status).toBe('PASS');
    expect(pass!.margin).toBeCloseTo(0.9 / 0.8 - 1, 10);
    expect(pass!.detail).toContain('4,500 req/s');

    const [fail] = checkStartupBudgets(
      result([
        {
          size: 100_000,
          startHealth: { start: window(1191), later: window(5000), readySeconds: 1.2 },
        },
      ]),
    );
    expect(fail!.status).toBe('FAIL');
  });

  it('fails on an error, and is not measured without a 100k run', () => {
    const [errors] = checkStartupBudgets(
      result([
        {
          size: 100_000,
          startHealth: { start: window(5000, 3), later: window(5000), readySeconds: 1 },
        },
      ]),
    );
    expect(errors!.status).toBe('FAIL');
    const [none] = checkStartupBudgets(
      result([
        { size: 1000, startHealth: { start: window(1), later: window(5000), readySeconds: 1 } },
      ]),
    );
    expect(none!.status).toBe('NOT MEASURED');
  });
});
