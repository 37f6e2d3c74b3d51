import type { BenchOptions } from './options';
import { runScript } from './script';
import type { RunningServer } from './server-process';
import { percentile } from './stats';

/** The scenario name of the term's first morning (for --scenarios). */
export const RUSH_SCENARIO = 'rush';

/** What a student or a seller does in the rush, in the order the report lists them. */
export const RUSH_KINDS = [
  'sign-in',
  'search',
  'listing',
  'course',
  'save',
  'alert',
  'create-listing',
] as const;
export type RushKind = (typeof RUSH_KINDS)[number];

/** One request of the rush: its kind, its time to the whole answer, and whether it succeeded. */
export interface RushSample {
  kind: RushKind;
  ms: number;
  ok: boolean;
}

/** One line of the report: a kind's requests, failures and latency (over every request, failed too). */
export interface RushKindSummary {
  kind: RushKind;
  requests: number;
  errors: number;
  p50: number;
  p99: number;
}

/** What bench/rush.ts prints (its last line of output). */
export interface RushOutcome {
  students: number;
  sellers: number;
  /** Rounds of search, listing, course, listing in each student's session. */
  rounds: number;
  /** From the first sign-in sent to the last answer, s. */
  seconds: number;
  kinds: RushKindSummary[];
  /** The server's CPU over the rush (Node side: the PostgreSQL server's processes are not counted). */
  serverCpuMs: number;
  /** …divided by the students' successful sign-ins: what a student's morning costs the server. */
  serverCpuMsPerSignIn: number;
  /** The server's CPU for one sign-in on a quiet server (the sellers', one after another, before). */
  serverCpuMsPerQuietSignIn: number;
  /** The first failures (kind, status, message), to explain errors. */
  failures: string[];
  /** From the first sign-in sent to the last sign-in answered, s. */
  signInWaveSeconds: number;
  /** Sign-ins that succeeded in the wave. */
  signIns: number;
  /** One password check (the server's argon2id) alone on the quiet machine, median wall time, ms. */
  hashMs: number;
  /** The machine's cores (the server and the load generator share them). */
  cores: number;
}

export interface RushResult extends RushOutcome {
  size: number;
  /** Set when the script failed before printing a result. */
  error?: string;
}

/** The reads a student waits on in the rush, held to the tighter p99 (BUDGET.rushReadP99Ms). */
export const RUSH_READS: readonly RushKind[] = ['search', 'listing', 'course'];

/**
 * The sign-in wave's rate against the rate the password hash allows: every core checking
 * passwords back to back (cores × 1,000 ÷ one check's ms). NaN when either is unknown.
 */
export function signInWave(
  r: Pick<RushOutcome, 'signIns' | 'signInWaveSeconds' | 'hashMs' | 'cores'>,
): {
  perSecond: number;
  hashAllows: number;
  share: number;
} {
  const perSecond = r.signInWaveSeconds > 0 ? r.signIns / r.signInWaveSeconds : NaN;
  const hashAllows = r.hashMs > 0 ? (r.cores * 1000) / r.hashMs : NaN;
  return { perSecond, hashAllows, share: perSecond / hashAllows };
}

/** The kinds that took place, in RUSH_KINDS order, with their counts and latency percentiles. */
export function summarizeRush(samples: readonly RushSample[]): RushKindSummary[] {
  return RUSH_KINDS.flatMap((kind) => {
    const mine = samples.filter((s) => s.kind === kind);
    if (mine.length === 0) return [];
    const times = mine.map((s) => s.ms);
    return [
      {
        kind,
        requests: mine.length,
        errors: mine.filter((s) => !s.ok).length,
        p50: percentile(times, 50),
        p99: percentile(times, 99),
      },
    ];
  });
}

export function isRushSelected(options: BenchOptions): boolean {
  return (
    options.engines.includes('postgres') &&
    (!options.scenarios || options.scenarios.includes(RUSH_SCENARIO))
  );
}

/** The catalogue the rush runs on: the largest PostgreSQL one asked for (the budget's is 100k). */
export const rushSize = (options: BenchOptions): number => Math.max(...options.sizes);

/**
 * Runs bench/rush.ts in a process of its own (on the load generator's core) against a running
 * server on a seeded PostgreSQL database: it adds the students and sellers to that database, then
 * loads the server through HTTP as they would.
 */
export async function runRush(
  server: RunningServer,
  databaseUrl: string,
  size: number,
): Promise<RushResult> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BASE_URL: server.url,
    SERVER_PID: String(server.pid),
    DATABASE_URL: databaseUrl,
  };
  const { code, stdout, stderr } = await runScript('bench/rush.ts', env);
  const last = stdout.trim().split('\n').at(-1) ?? '';
  try {
    return { size, ...(JSON.parse(last) as RushOutcome) };
  } catch {
    return {
      size,
      students: 0,
      sellers: 0,
      rounds: 0,
      seconds: NaN,
      kinds: [],
      serverCpuMs: NaN,
      serverCpuMsPerSignIn: NaN,
      serverCpuMsPerQuietSignIn: NaN,
      failures: [],
      signInWaveSeconds: NaN,
      signIns: 0,
      hashMs: NaN,
      cores: NaN,
      error: `exit ${code}: ${(stderr || stdout).trim().split('\n').slice(-3).join(' ')}`,
    };
  }
}
