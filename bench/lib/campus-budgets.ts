import type { Request } from 'autocannon';
import type { LoadSpec } from './load';
import type { ScenarioRow } from './results';

/**
 * The many-campus bench's budgets (issue 45, "It stays fast"): each per-campus scenario served for
 * N campuses at once within 1.25 × of the same run's single campus: req/s ≥ 0.8 × and p99 ≤ 1.25 ×;
 * the app server's pooled connections to PostgreSQL no more than its pool, whatever N.
 */
export const CAMPUS_BUDGET = { minRpsRatio: 0.8, maxP99Ratio: 1.25 } as const;

/** A scenario's row, with the local PostgreSQL server's CPU per request when it was read. */
export type CampusScenarioRow = ScenarioRow & { postgresCpuMsPerRequest?: number };

export interface CampusComparison {
  scenario: string;
  singleRps: number;
  singleP99: number;
  manyRps: number;
  manyP99: number;
  /** N-campus req/s ÷ single-campus req/s. */
  rpsRatio: number;
  /** N-campus p99 ÷ single-campus p99. */
  p99Ratio: number;
  /**
   * `rpsRatio` ÷ health's own ratio between the two phases (NaN without health): health is the same
   * work in both, so this shows what is left once the machine's change between them is taken out.
   * Printed beside the budget, not budgeted.
   */
  rpsRatioToHealth: number;
  /** The server's CPU per answered request, ms (steadier than req/s on a shared machine). */
  singleCpuMs: number;
  manyCpuMs: number;
  /** The PostgreSQL server's processes' CPU per answered request, ms (NaN: not read). */
  singlePgCpuMs: number;
  manyPgCpuMs: number;
  errors: number;
  /** Health is the ceiling, shown but not budgeted. */
  budgeted: boolean;
  ok: boolean;
}

export function compareCampusRuns(
  single: readonly CampusScenarioRow[],
  many: readonly CampusScenarioRow[],
): CampusComparison[] {
  const ratioOf = (scenario: string) => {
    const s = single.find((r) => r.scenario === scenario);
    const m = many.find((r) => r.scenario === scenario);
    return s && m ? m.requestsPerSecond / s.requestsPerSecond : NaN;
  };
  const healthRatio = ratioOf('health');
  return single.flatMap((s) => {
    const m = many.find((r) => r.scenario === s.scenario);
    if (!m) return [];
    const rpsRatio = m.requestsPerSecond / s.requestsPerSecond;
    const p99Ratio = m.p99 / s.p99;
    const budgeted = s.scenario !== 'health';
    const errors = s.errors + m.errors;
    return [
      {
        scenario: s.scenario,
        singleRps: s.requestsPerSecond,
        singleP99: s.p99,
        manyRps: m.requestsPerSecond,
        manyP99: m.p99,
        rpsRatio,
        p99Ratio,
        rpsRatioToHealth: rpsRatio / healthRatio,
        singleCpuMs: s.serverCpuMsPerRequest,
        manyCpuMs: m.serverCpuMsPerRequest,
        singlePgCpuMs: s.postgresCpuMsPerRequest ?? NaN,
        manyPgCpuMs: m.postgresCpuMsPerRequest ?? NaN,
        errors,
        budgeted,
        // NaN (no answer) fails: a comparison that could not be made is not a pass.
        ok:
          errors === 0 &&
          rpsRatio >= CAMPUS_BUDGET.minRpsRatio &&
          p99Ratio <= CAMPUS_BUDGET.maxP99Ratio,
      },
    ];
  });
}

/**
 * Measured rounds per scenario and side (runSideBySide): the machine's speed moves between runs by
 * more than the budget's margin, so each side's figure is the best of its rounds, each taken within
 * seconds of the other side's. Two rounds let one slow moment on one side decide a run (a single
 * campus's two rounds 27 % apart, docs/performance.md); with three, it must last two rounds.
 */
export const CAMPUS_ROUNDS = 3;

/** Which side runs first in a round (0 the single campus, 1 the N campuses): swapped every round. */
export const roundOrder = (round: number): readonly [0 | 1, 0 | 1] =>
  round % 2 === 0 ? [0, 1] : [1, 0];

/**
 * A side's best round: the most requests a second, as a machine that slowed down for a while can
 * only take from a figure, never add to it. A round with errors counts only when all had them.
 */
export function bestRound(rounds: readonly CampusScenarioRow[]): CampusScenarioRow {
  if (rounds.length === 0) throw new Error('no round was measured');
  const clean = rounds.filter((r) => r.errors === 0);
  return (clean.length > 0 ? clean : rounds).reduce((best, r) =>
    r.requestsPerSecond > best.requestsPerSecond ? r : best,
  );
}

export interface CampusFootprint {
  campuses: number;
  /** Resident memory after start and one request to each campus, MB. */
  rssMb: number;
  pooled: number;
  listening: number;
}

/** (RSS with N campuses − RSS with 1) ÷ (N − 1), MB. */
export const memoryPerIdleCampusMb = (one: CampusFootprint, many: CampusFootprint): number =>
  many.campuses > one.campuses ? (many.rssMb - one.rssMb) / (many.campuses - one.campuses) : NaN;

/** Connections are bounded when N campuses hold no more pooled ones than the pool (nor LISTENs than 1). */
export const connectionsBounded = (
  one: CampusFootprint,
  many: CampusFootprint,
  poolSize: number,
): boolean => many.pooled <= poolSize && many.listening <= Math.max(1, one.listening);

/**
 * A scenario's load sent to every campus in turn: each request keeps the scenario's own path (the
 * fixed one, or the next of its rotation) and goes to the host a seeded draw picks, so every campus
 * gets its share and consecutive requests rarely share a campus (the worst case for caches and for
 * a connection's campus switch).
 */
/** A request's setupRequest as autocannon calls it in this process (not a worker's module path). */
export type SetupRequest = (request: Request, context: object) => Request | null | undefined;

export function spreadOverHosts(
  load: Pick<LoadSpec, 'path' | 'requests'>,
  hosts: readonly string[],
  seed = 1,
): Request[] {
  let state = seed >>> 0 || 1;
  const nextHost = () => {
    // xorshift32: cheap, seeded, the same sequence every run.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return hosts[state % hosts.length]!;
  };
  const base: Request[] = load.requests ?? [{ path: load.path ?? '/' }];
  return base.map((request) => ({
    ...request,
    setupRequest: (req, context) => {
      const setup = request.setupRequest as SetupRequest | undefined;
      const built = setup ? setup(req, context) : { ...req, path: request.path ?? req.path };
      if (!built) return built as unknown as Request;
      return { ...built, headers: { ...built.headers, host: nextHost() } };
    },
  }));
}

const fixed = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

/** The table the many-campus run prints, in markdown (the docs quote it). */
export function renderCampusTable(
  rows: readonly CampusComparison[],
  campuses: number,
  size: number,
): string {
  const lines = [
    `| scenario (${size.toLocaleString('en-US')} listings per campus) | 1 campus req/s | 1 campus p99 ms | ${campuses} campuses req/s | ${campuses} campuses p99 ms | req/s ratio | ÷ health's ratio | p99 ratio | server CPU ms/req, 1 → ${campuses} | PostgreSQL CPU ms/req, 1 → ${campuses} | within 1.25× |`,
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- |',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.scenario} | ${fixed(r.singleRps)} | ${fixed(r.singleP99, 1)} | ${fixed(r.manyRps)} | ${fixed(r.manyP99, 1)} | ${fixed(r.rpsRatio, 2)} | ${fixed(r.rpsRatioToHealth, 2)} | ${fixed(r.p99Ratio, 2)} | ${fixed(r.singleCpuMs, 2)} → ${fixed(r.manyCpuMs, 2)} | ${fixed(r.singlePgCpuMs, 2)} → ${fixed(r.manyPgCpuMs, 2)} | ${r.budgeted ? (r.ok ? 'yes' : `NO${r.errors ? ` (${r.errors} errors)` : ''}`) : '(ceiling)'} |`,
    );
  }
  return lines.join('\n');
}
