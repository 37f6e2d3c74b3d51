import type { SeedResult } from '../generate/seed';
import type { FanOutResult } from './fanout';
import type { MessageStreamsResult } from './message-streams';
import type { LoadGenerator } from './load';
import type { PageReport } from './lighthouse';
import type { RushResult } from './rush';
import type { WriteCheck } from './mixed';
import type { BenchOptions, Engine } from './options';
import type { ScenarioGroup } from './scenarios';

export interface ScenarioRow {
  scenario: string;
  group: ScenarioGroup;
  requestsPerSecond: number;
  /** Answered requests in the measured run. */
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  /** requests/s ÷ the same run's /api/health requests/s. */
  ratioToHealth: number;
  /** The server's peak resident memory up to the end of this scenario, MB. */
  peakRssMb: number;
  bytesPerResponse: number;
  /**
   * CPU the server process spent per answered request (Node side only; the PostgreSQL server's own
   * processes are not counted). Unlike req/s it hardly depends on what else the machine runs.
   */
  serverCpuMsPerRequest: number;
  statusCodes: Record<string, number>;
  /** What produced the load (bench/lib/load.ts). */
  generator: LoadGenerator;
  /** The machine's 1-minute load average at the end of the scenario: above 2 (cores) means shared CPU. */
  loadAverage: number;
}

export interface RunResult {
  engine: Engine;
  size: number;
  seed: Omit<
    SeedResult,
    'sampleListingIds' | 'ownedListingIds' | 'benchImageUrls' | 'sampleIsbns' | 'sampleCourses'
  >;
  /** Spawn of the server to the first 200 from /api/health. */
  readySeconds: number;
  signIn: 'ok' | string;
  rows: ScenarioRow[];
  writeCheck: WriteCheck | null;
  /** Health right after a restart on the same database, and once settled (startup-health.ts). */
  startHealth?: StartHealth;
}

/** Health's load in one window (startup-health.ts). */
export interface HealthWindow {
  requestsPerSecond: number;
  p99: number;
  errors: number;
}

/** Health in a restarted server's first seconds and once it has settled (startup-health.ts). */
export interface StartHealth {
  start: HealthWindow;
  later: HealthWindow;
  /** Spawn to the first answer of the restarted server. */
  readySeconds: number;
}

export interface BudgetCheck {
  budget: string;
  status: 'PASS' | 'FAIL' | 'NOT MEASURED';
  detail: string;
  /**
   * How far inside its limit the budget's closest figure is, relative to the limit (0.22 = 22 %
   * left; negative when failing, −∞ when a figure had no answer). Undefined for a budget with no
   * numeric limit (only yes-or-no conditions, e.g. no error at all) and when not measured.
   */
  margin?: number;
  /** The figure that sets the margin ("search-filtered p99 34.0 ms of ≤ 40 ms"), or why there is none. */
  marginFigure?: string;
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  os: string;
  node: string;
  postgres: string | null;
  pinned: boolean;
  loadAverageBefore: number[];
  loadAverageAfter?: number[];
}

export interface BenchResult {
  startedAt: string;
  finishedAt?: string;
  command: string;
  options: BenchOptions;
  machine: Machine;
  runs: RunResult[];
  lighthouse: { engine: Engine; size: number; pages: PageReport[] } | null;
  /** The alerts fan-out (bench/alerts-fanout.ts), once per engine. */
  fanOut: FanOutResult[];
  /** The conversations' streams across two servers (bench/message-streams.ts), on PostgreSQL. */
  messageStreams: MessageStreamsResult | null;
  /** The term's first morning (bench/rush.ts), on the largest PostgreSQL catalogue of the run. */
  rush?: RushResult | null;
  budgets: BudgetCheck[];
}
