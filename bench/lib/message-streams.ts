import type { BenchOptions } from './options';
import { runScript } from './script';

/** The scenario name of the conversations' streams (for --scenarios). */
export const MESSAGE_STREAMS_SCENARIO = 'message-streams';

/** What bench/message-streams.ts prints (its last line of output). */
export interface MessageStreamsResult {
  streamsPerServer: number;
  messages: number;
  sendP50Ms: number;
  sendP99Ms: number;
  deliveryP50Ms: number;
  deliveryP99Ms: number;
  kbPerIdleStream: number;
  /** Set when the script failed before printing a result. */
  error?: string;
}

export function isMessageStreamsSelected(options: BenchOptions): boolean {
  return (
    options.engines.includes('postgres') &&
    (!options.scenarios || options.scenarios.includes(MESSAGE_STREAMS_SCENARIO))
  );
}

/**
 * Runs bench/message-streams.ts in a process of its own: two built servers on a scratch PostgreSQL
 * database (LISTEN/NOTIFY is what carries a message between them), 1,000 idle streams on each.
 */
export async function runMessageStreams(options: BenchOptions): Promise<MessageStreamsResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, POSTGRES_URL: options.postgresUrl };
  delete env.DATABASE_URL;
  const { code, stdout, stderr } = await runScript('bench/message-streams.ts', env);
  const last = stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(last) as MessageStreamsResult;
  } catch {
    return {
      streamsPerServer: 0,
      messages: 0,
      sendP50Ms: NaN,
      sendP99Ms: NaN,
      deliveryP50Ms: NaN,
      deliveryP99Ms: NaN,
      kbPerIdleStream: NaN,
      error: `exit ${code}: ${(stderr || stdout).trim().split('\n').slice(-3).join(' ')}`,
    };
  }
}
