import { check, notMeasured, ms, type BudgetFigure } from './budget-limits';
import { runLoad } from './load';
import type { BenchOptions } from './options';
import type { BenchResult, BudgetCheck, HealthWindow, StartHealth } from './results';

/**
 * Health in the server's first seconds (issue 46, "no start-up stall"): the server is stopped after
 * the scenarios and started again on the same database (its jobs now have slots that fell due while
 * it was down, as after a deploy), health is loaded from its first answer for `START_SECONDS`, then
 * again as long once it has settled; the first rate must be at least `START_SHARE` of the second.
 */
export const STARTUP_SCENARIO = 'health-at-start';
export const START_SECONDS = 5;
/** Seconds between the start's window and the later one (the job runner's first look included). */
export const SETTLE_SECONDS = 15;
/** The budget: health's rate in the first seconds ≥ this × its rate once settled. */
export const START_SHARE = 0.8;
/** …at this catalogue size, on either engine. */
export const START_LISTINGS = 100_000;

export const isStartupSelected = (options: BenchOptions): boolean =>
  !options.scenarios || options.scenarios.includes(STARTUP_SCENARIO);

/** Health's rate from the server's first answer on, then once settled (a server just started). */
export async function measureStartHealth(
  url: string,
  connections: number,
  readySeconds: number,
): Promise<StartHealth> {
  const load = async (): Promise<HealthWindow> => {
    const r = await runLoad(
      { url, connections, duration: START_SECONDS, path: '/api/health', generator: 'wrk' },
      0,
    );
    return { requestsPerSecond: r.requestsPerSecond, p99: r.p99, errors: r.errors };
  };
  const start = await load();
  await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
  const later = await load();
  return { start, later, readySeconds };
}

const rate = (n: number) => `${Math.round(n).toLocaleString('en-US')} req/s`;

/** One budget per engine measured at START_LISTINGS (the others are printed, not budgeted). */
export function checkStartupBudgets(result: BenchResult): BudgetCheck[] {
  const name = (engine: string) =>
    `${engine} ${START_LISTINGS / 1000}k, health in the first ${START_SECONDS} s after a restart ≥ ${START_SHARE} × its rate ${SETTLE_SECONDS} s later`;
  if (!isStartupSelected(result.options)) return [];
  const measured = result.runs.filter((r) => r.startHealth && r.size === START_LISTINGS);
  if (measured.length === 0) {
    return [notMeasured(name('either engine'), `no run at ${START_LISTINGS} listings`)];
  }
  return measured.map((run) => {
    const { start, later, readySeconds } = run.startHealth!;
    const figure: BudgetFigure = {
      label: 'first seconds ÷ later',
      value: start.requestsPerSecond / later.requestsPerSecond,
      limit: START_SHARE,
      direction: '≥',
      unit: '×',
    };
    return check(
      name(run.engine),
      `first ${START_SECONDS} s ${rate(start.requestsPerSecond)} (p99 ${ms(start.p99)}), later ${rate(later.requestsPerSecond)} (p99 ${ms(later.p99)}); ready in ${readySeconds.toFixed(2)} s`,
      [figure],
      [{ label: 'no error', ok: start.errors + later.errors === 0 }],
    );
  });
}
