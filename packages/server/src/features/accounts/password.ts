import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { limitConcurrency } from '../../lib/concurrency';

// argon2id (the library's default algorithm) with OWASP's suggested memory cost: 19 MiB, t=2, p=1.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * A hash or a check is ~20 ms of a core. Run side by side on every thread of the pool, the 200
 * sign-ins of a term's first morning would take every core from the other requests for seconds
 * (docs/performance.md, "rush"): at most one fewer than the cores run at once (at least one), and
 * the others wait their turn.
 */
const hashing = limitConcurrency(Math.max(1, availableParallelism() - 1));

export function hashPassword(password: string): Promise<string> {
  return hashing(() => hash(password, OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashing(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}
