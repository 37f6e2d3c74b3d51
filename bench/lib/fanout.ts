import { createScratchDatabase } from './databases';
import type { BenchOptions, Engine } from './options';
import { runScript } from './script';

/** The scenario name of the alerts fan-out (for --scenarios). */
export const FANOUT_SCENARIO = 'alerts-fanout';

/** What bench/alerts-fanout.ts prints (its last line of output). */
export interface FanOutResult {
  engine: Engine;
  alerts: number;
  samples: number;
  createMedianMsWithoutAlerts: number;
  createMedianMsWith1000MatchingAlerts: number;
  matchedListings: number;
  mailsSent: number;
  deliveriesLeft: number;
  fanOutSeconds: number;
  /** Wall time of the whole script (start, seeding, samples, fan-out), s. */
  totalSeconds: number;
  /** Set when the script failed before printing a result. */
  error?: string;
}

export function isFanOutSelected(options: BenchOptions): boolean {
  return !options.scenarios || options.scenarios.includes(FANOUT_SCENARIO);
}

/**
 * Runs bench/alerts-fanout.ts in a process of its own (the app in-process through inject, as the
 * script measures it): PGlite in memory, or a scratch PostgreSQL database dropped afterwards. The
 * catalogue size does not matter to it, so it runs once per engine.
 */
export async function runFanOut(engine: Engine, options: BenchOptions): Promise<FanOutResult> {
  const scratch = engine === 'postgres' ? await createScratchDatabase(options.postgresUrl) : null;
  const started = performance.now();
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ALERTS: String(options.fanOutAlerts),
      SAMPLES: String(options.fanOutSamples),
    };
    delete env.DATABASE_URL;
    if (scratch) env.DATABASE_URL = scratch.url;
    const { code, stdout, stderr } = await runScript('bench/alerts-fanout.ts', env);
    const totalSeconds = (performance.now() - started) / 1000;
    const last = stdout.trim().split('\n').at(-1) ?? '';
    try {
      const parsed = JSON.parse(last) as Omit<FanOutResult, 'totalSeconds'>;
      return { ...parsed, engine, totalSeconds };
    } catch {
      return {
        engine,
        alerts: options.fanOutAlerts,
        samples: options.fanOutSamples,
        createMedianMsWithoutAlerts: NaN,
        createMedianMsWith1000MatchingAlerts: NaN,
        matchedListings: 0,
        mailsSent: 0,
        deliveriesLeft: NaN,
        fanOutSeconds: NaN,
        totalSeconds,
        error: `exit ${code}: ${(stderr || stdout).trim().split('\n').slice(-3).join(' ')}`,
      };
    }
  } finally {
    await scratch?.dispose();
  }
}
