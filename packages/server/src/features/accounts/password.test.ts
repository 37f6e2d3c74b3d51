import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD_COST } from '../../../test/cheap-passwords';
import {
  DEFAULT_PASSWORD_THREAD_NICE as PASSWORD_THREAD_NICE,
  PASSWORD_MAX_BYTES,
  PASSWORD_THREADS,
  hashPassword,
  startPasswordThreads,
  usePasswordCostForTests,
  verifyPassword,
} from './password';

const FAILING_WORKER = fileURLToPath(
  new URL('../../../test/support/failing-password-worker.js', import.meta.url),
);

/** The nice value of each of this process's threads (Linux's /proc). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis; the nice value is the stat file's 19th.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe('passwords', () => {
  // The product's cost, not the suites' (test/cheap-passwords.ts); the worker's later files get theirs back.
  beforeAll(() => usePasswordCostForTests(null));
  afterAll(() => usePasswordCostForTests(TEST_PASSWORD_COST));

  it('hashes with argon2id at the chosen cost, and checks only the right password', async () => {
    const passwordHash = await hashPassword('Correct-1');
    expect(passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(passwordHash, 'Correct-1')).toBe(true);
    expect(await verifyPassword(passwordHash, 'Correct-2')).toBe(false);
  });

  it('hashes and checks a 128-character passphrase; refuses a password past the bound unhashed', async () => {
    const passphrase = `${'ünïcode passphrase '.repeat(6)}${'x'.repeat(14)}`;
    expect(passphrase).toHaveLength(128);
    const passwordHash = await hashPassword(passphrase);
    expect(await verifyPassword(passwordHash, passphrase)).toBe(true);
    expect(await verifyPassword(passwordHash, passphrase.slice(0, 127))).toBe(false);
    // What no schema lets through (a megabyte, or 1,025 bytes of 257 four-byte characters) never
    // reaches argon2: a hash is refused, a check answers false.
    for (const huge of ['x'.repeat(1_000_000), '😀'.repeat(257)]) {
      expect(Buffer.byteLength(huge)).toBeGreaterThan(PASSWORD_MAX_BYTES);
      await expect(hashPassword(huge)).rejects.toThrow(/over 1024 bytes/);
      expect(await verifyPassword(passwordHash, huge)).toBe(false);
    }
    expect(await hashPassword('😀'.repeat(256))).toMatch(/^\$argon2id\$/);
  });

  it('answers false, not an error, for a stored hash that is not a hash', async () => {
    expect(await verifyPassword('not-a-hash', 'Correct-1')).toBe(false);
    // …and the thread that met it goes on working.
    expect(await verifyPassword(await hashPassword('Again-123'), 'Again-123')).toBe(true);
  });

  it('fails a check whose thread stopped or threw: a server error, never a wrong password', async () => {
    const passwordHash = await hashPassword('Correct-1');
    const failing = startPasswordThreads({ nice: 0, threads: 1, worker: FAILING_WORKER });
    try {
      await expect(failing.verify(passwordHash, 'stop')).rejects.toThrow(/exit(ed)? .*70/i);
      await expect(failing.verify(passwordHash, 'Correct-1')).rejects.toThrow(/out of memory/);
      await expect(failing.hash('Correct-1')).rejects.toThrow(/out of memory/);
    } finally {
      await failing.close();
    }
    // The pool the app uses was not touched by that one.
    expect(await verifyPassword(passwordHash, 'Correct-1')).toBe(true);
  });

  it('will not start without the threads’ code', () => {
    expect(() => startPasswordThreads({ nice: 0, worker: '/nowhere/password.worker.js' })).toThrow(
      /password threads' code is missing: \/nowhere/,
    );
  });

  it.runIf(process.platform === 'linux')(
    'runs in threads of their own at a lower priority, never more at once than the limit',
    async () => {
      const own = getPriority(); // 0, or the nice value the test run was started with
      const before = threadNiceValues().filter((n) => n === PASSWORD_THREAD_NICE).length;
      const hashes = await Promise.all(
        Array.from({ length: PASSWORD_THREADS + 3 }, (_, i) => hashPassword(`Many-${i}-pass`)),
      );
      expect(new Set(hashes).size).toBe(PASSWORD_THREADS + 3);
      const lowered = threadNiceValues().filter((n) => n === PASSWORD_THREAD_NICE).length;
      expect(PASSWORD_THREAD_NICE).toBeGreaterThan(0);
      expect(lowered).toBeGreaterThan(0);
      expect(lowered).toBeLessThanOrEqual(Math.max(before, PASSWORD_THREADS));
      expect(getPriority()).toBe(own); // the requests' thread keeps its priority
    },
  );

  it('does not keep a process alive once its hashes are done', async () => {
    const module = fileURLToPath(new URL('./password.ts', import.meta.url));
    // A script file, not `-e`: the threads take the process's options, and `--input-type` is for
    // `-e` only.
    const script = path.join(mkdtempSync(path.join(tmpdir(), 'cb-password-')), 'hash.mjs');
    writeFileSync(
      script,
      `const { hashPassword } = await import(${JSON.stringify(module)});
       console.log((await hashPassword('Exit-1234')).slice(0, 9));`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    rmSync(path.dirname(script), { recursive: true, force: true });
    expect({ code, out: out.trim() }).toEqual({ code: 0, out: '$argon2id' });
  }, 30_000);
});
