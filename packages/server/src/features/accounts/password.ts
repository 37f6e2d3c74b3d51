import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

// argon2id (the library's default algorithm) with OWASP's suggested memory cost: 19 MiB, t=2, p=1.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** argon2's cost parameters: memory in KiB, passes, lanes. */
export type PasswordCost = { memoryCost: number; timeCost: number; parallelism: number };

/** The cost new hashes are made with: OPTIONS, but in the test suites (usePasswordCostForTests). */
let cost: PasswordCost = OPTIONS;

/**
 * The nice value of the threads that hash and check passwords, by default (0 the requests' own
 * priority, 19 the lowest; PASSWORD_THREAD_NICE). A hash or a check is ~20 ms of a core: at the
 * requests' priority, the 200 sign-ins of a term's first morning take half of a one-core server
 * from every other request for seconds (docs/performance.md, "rush"). At 5 a request that is ready
 * to run gets ~75 % of a shared core; the checks run at full speed whenever the core is idle, and
 * get ~25 % of it when it is not, so a wave of sign-ins is slowed, never stopped.
 */
export const DEFAULT_PASSWORD_THREAD_NICE = 5;

/**
 * How many run at once: one fewer than the cores (at least one), each in a thread of its own; the
 * others wait their turn, first come first served.
 */
export const PASSWORD_THREADS = Math.max(1, availableParallelism() - 1);

/** The threads' code: plain JavaScript, found beside this file from the sources and the bundle. */
const PASSWORD_WORKER = fileURLToPath(new URL('./password.worker.js', import.meta.url));

export type PasswordThreads = {
  hash(password: string): Promise<string>;
  /** Whether the password matches; rejects when the check could not be made (a thread failed). */
  verify(passwordHash: string, password: string): Promise<boolean>;
  close(): Promise<void>;
};

/**
 * A pool of threads that hash and check passwords (piscina: one thread, more started on need up to
 * `threads`, the jobs queued first come first served). Each thread takes the nice value at its
 * start. A thread that crashes or stops rejects its job, and the next job gets a new thread: a
 * failed check is a server error, never a wrong password.
 */
export function startPasswordThreads(options: {
  nice: number;
  threads?: number;
  worker?: string;
}): PasswordThreads {
  const worker = options.worker ?? PASSWORD_WORKER;
  // Missing from a build or a release, it would fail every sign-in: the server does not start.
  if (!existsSync(worker)) throw new Error(`the password threads' code is missing: ${worker}`);
  const pool = new Piscina({
    filename: worker,
    // One thread from the start: piscina's first thread, started on need, would not keep the
    // process alive until it is ready (a script's only hash would end with the process).
    minThreads: 1,
    maxThreads: options.threads ?? PASSWORD_THREADS,
    // A wave of sign-ins keeps its threads; a quiet server lets the others go. An idle thread
    // does not keep the process alive.
    idleTimeout: 60_000,
    workerData: { nice: options.nice, options: cost },
  });
  // A thread that fails between jobs fails no job: the pool replaces it. (Unheard, the event would
  // stop the process.)
  pool.on('error', () => {});
  return {
    hash: async (password) => {
      const hash: unknown = await pool.run({ op: 'hash', password });
      if (typeof hash !== 'string') throw new Error('a password thread answered no hash');
      return hash;
    },
    verify: async (passwordHash, password) =>
      (await pool.run({ op: 'verify', passwordHash, password })) === true,
    close: () => pool.close(),
  };
}

let threadNice = DEFAULT_PASSWORD_THREAD_NICE;
let threads: PasswordThreads | undefined;
const passwordThreads = () => (threads ??= startPasswordThreads({ nice: threadNice }));

/**
 * Sets the threads' nice value (the app does, from its config, at its start, which also finds the
 * threads' code). Changed, the threads in use finish their jobs and new ones take the next.
 */
export function configurePasswordThreads(options: { nice: number }): void {
  if (threads && options.nice !== threadNice) {
    void threads.close();
    threads = undefined;
  }
  threadNice = options.nice;
  passwordThreads();
}

/**
 * The test suites' cost (test/cheap-passwords.ts): they make thousands of accounts and sign-ins,
 * each ~20–45 ms of a core at the product's cost, most of a run's CPU spent on argon2 for nothing
 * they check. No setting reaches it: only code calls it, and `null` restores the product's cost
 * (password.test.ts checks that cost). A check follows the cost written in the hash it checks.
 */
export function usePasswordCostForTests(testCost: PasswordCost | null): void {
  const next = testCost ?? OPTIONS;
  if (next === cost) return;
  cost = next;
  if (threads) {
    void threads.close();
    threads = undefined;
  }
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
  return passwordThreads().hash(password);
}

/** Whether the password matches the hash; rejects (a server error) when it could not be checked. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (isTooLong(password)) return false;
  return passwordThreads().verify(passwordHash, password);
}
