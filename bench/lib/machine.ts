import { readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import type { Machine } from './results';

function osName(): string {
  try {
    const pretty = /PRETTY_NAME="([^"]+)"/.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
    return `${pretty ?? os.type()} (Linux ${os.release()})`;
  } catch {
    return `${os.type()} ${os.release()}`;
  }
}

async function postgresVersion(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ v: string }>(
      "SELECT current_setting('server_version') AS v",
    );
    return `PostgreSQL ${rows[0]?.v ?? '?'}`;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function describeMachine(
  postgresUrl: string | null,
  pinned: boolean,
): Promise<Machine> {
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: os.cpus().length,
    memoryGb: Math.round(os.totalmem() / 1e9),
    os: osName(),
    node: process.version,
    postgres: postgresUrl ? await postgresVersion(postgresUrl) : null,
    pinned,
    loadAverageBefore: os.loadavg(),
  };
}
