import type { BudgetCheck, RunResult, BenchResult } from './results';
import { SEARCH_SCENARIOS } from './scenarios';

/** Budgets of the performance issue; bytes use 1 KB = 1,000 bytes (the stricter reading). */
export const BUDGET = {
  postgresSearchP99Ms: 50,
  postgresSearchRps: 1000,
  postgresByIdRps: 3000,
  /** The first screen in one round trip: every search at 100k on PostgreSQL, 50 connections. */
  postgresSearchP99MsStrict: 40,
  /** …and at least this share of the health scenario's rate in the same run (same machine load). */
  postgresSearchShareOfHealth: 0.3,
  pgliteSearchP99Ms: 100,
  searchGrowth: 3,
  lighthousePerformance: 98,
  lcpMs: 1800,
  tbtMs: 100,
  cls: 0.02,
  homeJsBytes: 110_000,
  homeCssBytes: 20_000,
  /** Images of one page of search results (9 cards) on a 375 px-wide phone at 2x. */
  searchImageBytes: 150_000,
  readySeconds: 3,
  /**
   * The home page's main script: 5× the 900 req/s @fastify/static served it at (0.62 ms of server
   * CPU per answer) before the built files were served from memory.
   */
  mainScriptRps: 4500,
  connections: 50,
  /** A create's median answer with 1,000 matching alerts: at most this × the median without… */
  fanOutCreateFactor: 1.5,
  /** …or at most this many ms above it (a few ms of noise on a fast create is no growth). */
  fanOutCreateSlackMs: 10,
  fanOutAlerts: 1000,
  fanOutSeconds: 60,
  /** A signed-out visitor's landing page at 100k, both engines: from memory, near the ceiling. */
  pageShareOfHealth: 0.5,
  pageP99Ms: 50,
  /** /my-courses for five courses at 100k on PostgreSQL (issue 31). */
  myCoursesP99Ms: 50,
  /** Conversations (issue 28), two servers on PostgreSQL with 1,000 idle streams each. */
  messageSendP99Ms: 50,
  messageDeliveryP99Ms: 250,
  kbPerIdleStream: 50,
  /**
   * The term's first morning (issue 33): 200 students signing in at once on PostgreSQL 100k. Sign-in
   * is left out: its password check is slow on purpose (argon2id, 19 MiB).
   */
  rushP99Ms: 250,
  /** …and the reads a student waits on (search, a listing, a course page): p99 ≤ 60 ms (issue 46). */
  rushReadP99Ms: 60,
  rushListings: 100_000,
  rushStudents: 200,
  /**
   * The sign-in wave completes at this share of the rate the password hash allows on the machine's
   * cores (cores ÷ one check's time, measured on the quiet machine before the rush).
   */
  signInWaveShareOfHash: 0.8,
} as const;

export const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : 'no answer');

/** A PASS closer to its limit than this (relative) is flagged: it may not pass run after run. */
export const THIN_MARGIN = 0.15;

/** What a figure is measured in: how its value and its limit are written. */
export type FigureUnit = 'ms' | 's' | 'req/s' | 'KB' | '×' | '';

/**
 * One measured figure against its numeric limit: `≤` and `<` are ceilings, `≥` a floor. A figure
 * that is not a finite number (no answer) fails.
 */
export interface BudgetFigure {
  label: string;
  value: number;
  limit: number;
  direction: '≤' | '<' | '≥';
  unit: FigureUnit;
}

/** A yes-or-no part of a budget with no numeric limit (no error at all, the run's settings). */
export interface BudgetCondition {
  label: string;
  ok: boolean;
}

const written = (n: number, unit: FigureUnit, limit: boolean): string => {
  if (!Number.isFinite(n)) return 'no answer';
  const digits = limit
    ? Number(n.toFixed(3)).toLocaleString('en-US', { maximumFractionDigits: 3 })
    : unit === 'req/s'
      ? Math.round(n).toLocaleString('en-US')
      : n.toFixed(unit === 's' || unit === '×' ? 2 : unit === '' ? 3 : 1);
  return unit === '×' ? `×${digits}` : unit === '' ? digits : `${digits} ${unit}`;
};

/** Whether the figure is within its limit. */
export const meets = (f: BudgetFigure): boolean =>
  !Number.isFinite(f.value)
    ? false
    : f.direction === '≥'
      ? f.value >= f.limit
      : f.direction === '<'
        ? f.value < f.limit
        : f.value <= f.limit;

/**
 * How far inside its limit the figure is, relative to the limit: (limit − figure) / limit for a
 * ceiling, (figure − limit) / limit for a floor; negative when failing, −∞ when there is no figure.
 */
export const figureMargin = (f: BudgetFigure): number =>
  !Number.isFinite(f.value)
    ? -Infinity
    : f.direction === '≥'
      ? (f.value - f.limit) / f.limit
      : (f.limit - f.value) / f.limit;

/** e.g. "search-filtered p99 34.0 ms of ≤ 40 ms". */
export const describeFigure = (f: BudgetFigure): string =>
  `${f.label} ${written(f.value, f.unit, false)} of ${f.direction} ${written(f.limit, f.unit, true)}`;

export const NO_NUMERIC_LIMIT = 'no numeric limit (yes or no)';

export const notMeasured = (budget: string, why: string): BudgetCheck => ({
  budget,
  status: 'NOT MEASURED',
  detail: why,
});

/** A budget whose script failed before it measured anything. */
export const failed = (budget: string, why: string): BudgetCheck => ({
  budget,
  status: 'FAIL',
  detail: why,
  marginFigure: 'nothing measured',
});

/**
 * A budget checked from its figures and conditions: it passes when every figure meets its limit and
 * every condition holds (and there is something to check); its margin is the smallest figure's, and
 * a budget with no figure has no margin. An unmet condition is named at the end of the detail.
 */
export function check(
  budget: string,
  detail: string,
  figures: readonly BudgetFigure[],
  conditions: readonly BudgetCondition[] = [],
): BudgetCheck {
  const unmet = conditions.filter((c) => !c.ok).map((c) => c.label);
  const ok = figures.length + conditions.length > 0 && unmet.length === 0 && figures.every(meets);
  const fullDetail = unmet.length > 0 ? `${detail}; not met: ${unmet.join('; ')}` : detail;
  let tightest: BudgetFigure | undefined;
  for (const f of figures) if (!tightest || figureMargin(f) < figureMargin(tightest)) tightest = f;
  return {
    budget,
    status: ok ? 'PASS' : 'FAIL',
    detail: fullDetail,
    ...(tightest
      ? { margin: figureMargin(tightest), marginFigure: describeFigure(tightest) }
      : {
          marginFigure:
            figures.length === 0 && conditions.length > 0 ? NO_NUMERIC_LIMIT : 'nothing measured',
        }),
  };
}

/** A PASS with less than 15 % left to its limit (a separate marker: it does not fail the run). */
export const isThin = (b: BudgetCheck): boolean =>
  b.status === 'PASS' && b.margin !== undefined && b.margin < THIN_MARGIN;

/** The result as printed: PASS, "PASS, thin margin (< 15 %)", FAIL or NOT MEASURED. */
export const resultLabel = (b: BudgetCheck): string =>
  isThin(b) ? `PASS, thin margin (< ${THIN_MARGIN * 100} %)` : b.status;

/**
 * The margin in percent, e.g. "22 %" (one decimal under 20 %, rounded down so that 14.96 % is not
 * shown as 15 %), or undefined when the budget has none.
 */
export function marginPercent(b: BudgetCheck): string | undefined {
  if (b.status === 'NOT MEASURED' || b.margin === undefined || !Number.isFinite(b.margin))
    return undefined;
  const percent = b.margin * 100;
  const shown =
    Math.abs(percent) < 20
      ? (Math.floor(percent * 10 + 1e-9) / 10).toFixed(1)
      : Math.floor(percent + 1e-9).toFixed(0);
  return `${shown.replace('-', '−')} %`;
}

/** e.g. "margin 22 % (search-filtered p99 31.0 ms of ≤ 40 ms)", or "margin – (why none)". */
export function marginLabel(b: BudgetCheck): string {
  if (b.status === 'NOT MEASURED') return 'margin –';
  const percent = marginPercent(b);
  return `margin ${percent ?? '–'} (${b.marginFigure ?? NO_NUMERIC_LIMIT})`;
}

/** One budget on one line for the console: result, margin, name. */
export const budgetLine = (b: BudgetCheck): string =>
  `${resultLabel(b).padEnd(26)} ${marginLabel(b)}  ${b.budget}`;

/** The run's summary line: how many budgets passed (thin margins among them), failed, not measured. */
export function summarizeBudgets(budgets: readonly BudgetCheck[]): string {
  const count = (s: BudgetCheck['status']) => budgets.filter((b) => b.status === s).length;
  const thin = budgets.filter(isThin).length;
  return `Budgets: ${count('PASS')} PASS (${thin} with a thin margin < ${THIN_MARGIN * 100} %), ${count('FAIL')} FAIL, ${count('NOT MEASURED')} NOT MEASURED`;
}

/** The load run of one engine at one catalogue size. */
export function run(result: BenchResult, engine: string, size: number): RunResult | undefined {
  return result.runs.find((r) => r.engine === engine && r.size === size);
}

/** A run's search scenarios. */
export function searchRows(r: RunResult) {
  return r.rows.filter((row) => SEARCH_SCENARIOS.includes(row.scenario));
}
