import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { limitConcurrency } from '../../lib/concurrency';

// argon2id (the library's default algorithm) with OWASP's suggested memory cost: 19 MiB, t=2, p=1.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * The nice value of the threads that hash and check passwords, by default (0 the requests' own
 * priority, 19 the lowest; PASSWORD_THREAD_NICE). A hash or a check is ~20 ms of a core: at the
 * requests' priority, the 200 sign-ins of a term's first morning take half of a one-core server
 * from every other request for seconds (docs/performance.md, "rush"). At 5 a request that is ready
 * to run gets ~75 % of a shared core; the checks run at full speed whenever the core is idle, and
 * get ~25 % of it when it is not, so a wave of sign-ins is slowed, never stopped.
 */
export const DEFAULT_PASSWORD_THREAD_NICE = 5;
let threadNice = DEFAULT_PASSWORD_THREAD_NICE;

/** Sets the threads' nice value (the app does, from its config); a running thread takes it at its next job. */
export function configurePasswordThreads(options: { nice: number }): void {
  threadNice = options.nice;
}

/**
 * How many run at once: one fewer than the cores (at least one), each in a thread of its own; the
 * others wait their turn, first come first served.
 */
export const PASSWORD_THREADS = Math.max(1, availableParallelism() - 1);

type Job = { nice: number } & (
  { op: 'hash'; password: string } | { op: 'verify'; passwordHash: string; password: string }
);
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Reply = { value: string | boolean } | { error: string };

/**
 * The threads' code, given as text so that it runs the same from the sources and the bundle. Only
 * `import()` is both CommonJS and a module: a thread reads its code as the process reads `-e`.
 */
const THREAD_SOURCE = `(async () => {
  const { parentPort, workerData } = await import('node:worker_threads');
  const { setPriority } = await import('node:os');
  const { hashSync, verifySync } = (await import(workerData.argon2)).default;
  let nice = 0;
  parentPort.on('message', (job) => {
    if (job.nice !== nice) {
      try { setPriority(job.nice); nice = job.nice; } catch {}
    }
    let reply;
    try {
      reply = {
        value: job.op === 'hash'
          ? hashSync(job.password, workerData.options)
          : verifySync(job.passwordHash, job.password),
      };
    } catch (error) {
      reply = { error: error instanceof Error ? error.message : String(error) };
    }
    parentPort.postMessage(reply);
  });
})();`;

const argon2Url = pathToFileURL(createRequire(import.meta.url).resolve('@node-rs/argon2')).href;
const idle: Worker[] = [];
const slots = limitConcurrency(PASSWORD_THREADS);

function startThread(): Worker {
  return new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: { argon2: argon2Url, options: OPTIONS },
  });
}

/**
 * Runs the job on an idle thread (started on first need). An idle thread does not keep the process
 * alive; a thread that failed is dropped, and the next job starts a new one.
 */
function inThread(job: DistributiveOmit<Job, 'nice'>): Promise<string | boolean> {
  return slots(
    () =>
      new Promise((resolve, reject) => {
        const thread = idle.pop() ?? startThread();
        const done = (settle: () => void, keep: boolean) => {
          thread.off('message', onReply).off('error', onFailure).off('exit', onExit);
          thread.unref();
          if (keep) idle.push(thread);
          else void thread.terminate();
          settle();
        };
        const onReply = (reply: Reply) =>
          'error' in reply
            ? done(() => reject(new Error(reply.error)), true)
            : done(() => resolve(reply.value), true);
        const onFailure = (error: Error) => done(() => reject(error), false);
        const onExit = (code: number) =>
          done(() => reject(new Error(`the password thread stopped (${code})`)), false);
        thread.on('message', onReply).on('error', onFailure).on('exit', onExit);
        thread.ref();
        thread.postMessage({ ...job, nice: threadNice });
      }),
  );
}

/**
 * The longest password hashed or checked, in UTF-8 bytes. The schemas let a student set 128
 * characters (PASSWORD_MAX_LENGTH) and try 200 at sign-in, at most 800 bytes; argon2 reads the
 * password once, so its cost stays that of its memory and passes up to here. A longer one, from a
 * caller that skipped a schema, is refused before it reaches a thread.
 */
export const PASSWORD_MAX_BYTES = 1024;

const isTooLong = (password: string) =>
  password.length > PASSWORD_MAX_BYTES || Buffer.byteLength(password) > PASSWORD_MAX_BYTES;

export async function hashPassword(password: string): Promise<string> {
  if (isTooLong(password)) throw new Error(`a password over ${PASSWORD_MAX_BYTES} bytes`);
  return (await inThread({ op: 'hash', password })) as string;
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (isTooLong(password)) return false;
  try {
    return (await inThread({ op: 'verify', passwordHash, password })) === true;
  } catch {
    return false;
  }
}
