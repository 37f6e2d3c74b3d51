import { spawn } from 'node:child_process';
import path from 'node:path';

const SUPPORT = path.resolve(import.meta.dirname, '..', '..', 'server', 'test', 'support');

/** A provider or stand-in of the server's tests (test/support/*.cli.ts) running for one spec. */
export interface SupportProcess<Ready> {
  /** What the process printed once ready (its first line of JSON). */
  ready: Ready;
  stop(): Promise<void>;
}

/**
 * Runs `test/support/<cli>` with its settings as one JSON argument, until it prints its first line
 * of JSON (its addresses, once it answers): a process of its own, because those files belong to
 * the server's project and its dependencies.
 */
export function startSupportProcess<Ready>(
  cli: string,
  settings: unknown,
): Promise<SupportProcess<Ready>> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(SUPPORT, cli), JSON.stringify(settings)],
    { cwd: SUPPORT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${cli} did not start within 30 s:\n${output}`));
    }, 30_000);
    child.stderr.on('data', (d) => (output += d));
    child.stdout.on('data', (d) => {
      output += d;
      const line = output.split('\n').find((l) => l.startsWith('{'));
      if (!line || !output.includes(`${line}\n`)) return;
      clearTimeout(timer);
      resolve({ ready: JSON.parse(line) as Ready, stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${cli} exited (${code}):\n${output}`));
    });
  });
}
