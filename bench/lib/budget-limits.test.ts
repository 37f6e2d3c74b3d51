import { describe, expect, it } from 'vitest';
import {
  BUDGET,
  budgetLine,
  check,
  isThin,
  marginLabel,
  resultLabel,
  summarizeBudgets,
  type BudgetFigure,
} from './budget-limits';
import { checkLoadBudgets } from './load-budgets';
import type { BenchOptions } from './options';
import type { BenchResult, BudgetCheck, ScenarioRow } from './results';
import { PAGE_SCENARIOS } from './scenarios';

const ceiling = (label: string, value: number, limit = 100): BudgetFigure => ({
  label,
  value,
  limit,
  direction: '≤',
  unit: 'ms',
});
const floor = (label: string, value: number, limit = 1000): BudgetFigure => ({
  label,
  value,
  limit,
  direction: '≥',
  unit: 'req/s',
});

describe('a budget margin', () => {
  it('is (limit − figure) / limit for a ceiling, and names the figure', () => {
    const b = check('p99', 'measured', [ceiling('search-filtered p99', 34, 40)]);
    expect(b.status).toBe('PASS');
    expect(b.margin).toBeCloseTo(0.15, 10);
    expect(b.marginFigure).toBe('search-filtered p99 34.0 ms of ≤ 40 ms');
    expect(marginLabel(b)).toBe('margin 15.0 % (search-filtered p99 34.0 ms of ≤ 40 ms)');
  });

  it('is (figure − limit) / limit for a floor', () => {
    const b = check('rate', 'measured', [floor('listing-by-id', 3900, 3000)]);
    expect(b.status).toBe('PASS');
    expect(b.margin).toBeCloseTo(0.3, 10);
    expect(b.marginFigure).toBe('listing-by-id 3,900 req/s of ≥ 3,000 req/s');
    expect(marginLabel(b)).toMatch(/^margin 30 % /);
  });

  it('is set by the figure closest to its limit, whatever its direction', () => {
    const b = check('search', 'measured', [
      ceiling('search-default p99', 20), // 80 %
      floor('search-default', 1500), // 50 %
      ceiling('search-isbn p99', 78), // 22 %
      floor('search-isbn', 1400), // 40 %
    ]);
    expect(b.margin).toBeCloseTo(0.22, 10);
    expect(b.marginFigure).toBe('search-isbn p99 78.0 ms of ≤ 100 ms');
    expect(marginLabel(b)).toMatch(/^margin 22 % /);
  });

  it('is negative when a figure fails, set by the worst one', () => {
    const b = check('search', 'measured', [
      ceiling('a p99', 90),
      ceiling('b p99', 125), // −25 %
      floor('b', 950), // −5 %
    ]);
    expect(b.status).toBe('FAIL');
    expect(b.margin).toBeCloseTo(-0.25, 10);
    expect(b.marginFigure).toBe('b p99 125.0 ms of ≤ 100 ms');
    expect(marginLabel(b)).toMatch(/^margin −25 % /);
  });

  it('fails a figure with no answer, which then sets the margin', () => {
    const b = check('p99', 'measured', [ceiling('a p99', 10), ceiling('b p99', NaN)]);
    expect(b.status).toBe('FAIL');
    expect(b.margin).toBe(-Infinity);
    expect(marginLabel(b)).toBe('margin – (b p99 no answer of ≤ 100 ms)');
  });

  it('fails a strict ceiling at the limit itself', () => {
    const atLimit = { ...ceiling('growth', 3, 3), direction: '<' as const, unit: '×' as const };
    expect(check('growth', '', [atLimit]).status).toBe('FAIL');
    expect(check('growth', '', [{ ...atLimit, value: 2.9 }]).status).toBe('PASS');
  });

  it('is undefined, and says so, for a budget with no numeric limit', () => {
    const b = check('zero errors', 'none', [], [{ label: 'no error', ok: true }]);
    expect(b.status).toBe('PASS');
    expect(b.margin).toBeUndefined();
    expect(isThin(b)).toBe(false);
    expect(marginLabel(b)).toBe('margin – (no numeric limit (yes or no))');
  });

  it('fails on an unmet condition, naming it, while the figures keep their margin', () => {
    const b = check(
      'p99',
      'measured',
      [ceiling('p99', 50)],
      [{ label: 'run with 50 connections', ok: false }],
    );
    expect(b.status).toBe('FAIL');
    expect(b.detail).toBe('measured; not met: run with 50 connections');
    expect(b.margin).toBeCloseTo(0.5, 10);
  });
});

describe('a thin margin', () => {
  it('flags a PASS under 15 %, not one at 15 %, and never fails it', () => {
    const thin = check('p99', '', [ceiling('p99', 85.1)]);
    const enough = check('p99', '', [ceiling('p99', 85)]);
    expect(thin.status).toBe('PASS');
    expect(thin.margin).toBeCloseTo(0.149, 10);
    expect(isThin(thin)).toBe(true);
    expect(resultLabel(thin)).toBe('PASS, thin margin (< 15 %)');
    expect(marginLabel(thin)).toMatch(/^margin 14\.9 % /);
    expect(budgetLine(thin)).toMatch(/^PASS, thin margin \(< 15 %\) +margin 14\.9 %/);

    expect(enough.status).toBe('PASS');
    expect(isThin(enough)).toBe(false);
    expect(resultLabel(enough)).toBe('PASS');
    expect(marginLabel(enough)).toMatch(/^margin 15\.0 % /);
  });

  it('is not a failing budget’s marker', () => {
    const b = check('p99', '', [ceiling('p99', 101)]);
    expect(isThin(b)).toBe(false);
    expect(resultLabel(b)).toBe('FAIL');
  });

  it('is counted in the summary line', () => {
    const budgets: BudgetCheck[] = [
      check('a', '', [ceiling('a', 90)]),
      check('b', '', [ceiling('b', 50)]),
      check('c', '', [ceiling('c', 101)]),
      { budget: 'd', status: 'NOT MEASURED', detail: 'not run' },
    ];
    expect(summarizeBudgets(budgets)).toBe(
      'Budgets: 2 PASS (1 with a thin margin < 15 %), 1 FAIL, 1 NOT MEASURED',
    );
  });
});

describe('the landing pages budget, from a bench result', () => {
  const row = (scenario: string, requestsPerSecond: number, p99: number): ScenarioRow => ({
    scenario,
    group: 'semester',
    requestsPerSecond,
    requests: requestsPerSecond * 10,
    p50: p99 / 2,
    p99,
    errors: 0,
    ratioToHealth: requestsPerSecond / 10_000,
    peakRssMb: 200,
    bytesPerResponse: 5000,
    serverCpuMsPerRequest: 0.1,
    statusCodes: { '200': requestsPerSecond * 10 },
    generator: 'autocannon',
    loadAverage: 1,
  });
  const result = (pages: ScenarioRow[], connections: number = BUDGET.connections): BenchResult => ({
    startedAt: '2026-12-02T00:00:00.000Z',
    command: 'npm run bench',
    options: { connections } as BenchOptions,
    machine: {
      cpu: 'test',
      cores: 2,
      memoryGb: 8,
      os: 'linux',
      node: 'v22',
      postgres: null,
      pinned: true,
      loadAverageBefore: [0, 0, 0],
    },
    runs: [
      {
        engine: 'pglite',
        size: 100_000,
        seed: {} as BenchResult['runs'][number]['seed'],
        readySeconds: 1,
        signIn: 'ok',
        rows: [row('health', 10_000, 5), ...pages],
        writeCheck: null,
      },
    ],
    lighthouse: null,
    fanOut: [],
    messageStreams: null,
    budgets: [],
  });
  const landing = (r: BenchResult) =>
    checkLoadBudgets(r).find((b) => b.budget.startsWith('pglite 100k: the four landing pages'))!;

  // Four pages: p99 20–44 ms of ≤ 50 ms, 0.8–0.6 × health of ≥ 0.5.
  const pages = [
    row('home-html', 8000, 20),
    row('listing-html', 7000, 44), // p99 margin 12 %: the closest figure
    row('course-html', 6000, 30), // 0.6 × health: margin 20 %
    row('search-html', 7500, 25),
  ];

  it('checks every page and flags its thin margin on a passing run', () => {
    expect(pages.map((p) => p.scenario)).toEqual(PAGE_SCENARIOS);
    const b = landing(result(pages));
    expect(b.status).toBe('PASS');
    expect(b.margin).toBeCloseTo(0.12, 10);
    expect(b.marginFigure).toBe('listing-html p99 44.0 ms of ≤ 50 ms');
    expect(resultLabel(b)).toBe('PASS, thin margin (< 15 %)');
  });

  it('takes its margin from the share of health when that is closest', () => {
    const faster = pages.map((p) =>
      p.scenario === 'listing-html' ? row('listing-html', 7000, 35) : p,
    );
    const b = landing(result(faster));
    expect(b.status).toBe('PASS');
    expect(b.margin).toBeCloseTo(0.2, 10);
    expect(b.marginFigure).toBe('course-html share of health ×0.60 of ≥ ×0.5');
    expect(isThin(b)).toBe(false);
  });

  it('fails with a negative margin when one page is over its p99', () => {
    const slow = pages.map((p) => (p.scenario === 'home-html' ? row('home-html', 8000, 60) : p));
    const b = landing(result(slow));
    expect(b.status).toBe('FAIL');
    expect(b.margin).toBeCloseTo(-0.2, 10);
    expect(b.marginFigure).toBe('home-html p99 60.0 ms of ≤ 50 ms');
  });

  it('fails when a page is missing or the run had other connections, keeping the margin', () => {
    const three = landing(result(pages.slice(1)));
    expect(three.status).toBe('FAIL');
    expect(three.detail).toContain('not met: all 4 landing pages measured');
    const other = landing(result(pages, 10));
    expect(other.status).toBe('FAIL');
    expect(other.detail).toContain('not met: run with 50 connections');
    expect(other.margin).toBeCloseTo(0.12, 10);
  });
});
