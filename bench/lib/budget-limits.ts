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
  rushListings: 100_000,
  rushStudents: 200,
} as const;

export const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : 'no answer');
export const notMeasured = (budget: string, why: string): BudgetCheck => ({
  budget,
  status: 'NOT MEASURED',
  detail: why,
});
export const check = (budget: string, ok: boolean, detail: string): BudgetCheck => ({
  budget,
  status: ok ? 'PASS' : 'FAIL',
  detail,
});

/** The load run of one engine at one catalogue size. */
export function run(result: BenchResult, engine: string, size: number): RunResult | undefined {
  return result.runs.find((r) => r.engine === engine && r.size === size);
}

/** A run's search scenarios. */
export function searchRows(r: RunResult) {
  return r.rows.filter((row) => SEARCH_SCENARIOS.includes(row.scenario));
}
