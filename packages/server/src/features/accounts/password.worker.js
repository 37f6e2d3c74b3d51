// The code of the threads that hash and check passwords (password.ts runs it through piscina).
// Plain JavaScript, so that it runs as it is from the sources (tsx, the tests) and beside the
// bundle (scripts/build.mjs resolves it through its source's URL; the release ships it).
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import argon2 from '@node-rs/argon2';

// Linux gives each thread its own nice value: the thread lowers its own priority once, at its
// start, and the requests' thread keeps its own. Where that is refused, it runs at full priority.
try {
  setPriority(workerData.nice);
} catch {
  // a slower sign-in is worse than none
}

/**
 * Hashes a password, or checks one against its hash. A stored hash that argon2 cannot read matches
 * no password (false); anything else that fails rejects the caller's promise, as a server error.
 * @param {{ op: 'hash', password: string } | { op: 'verify', passwordHash: string, password: string }} job
 * @returns {string | boolean}
 */
export default function passwordJob(job) {
  if (job.op === 'hash') return argon2.hashSync(job.password, workerData.options);
  try {
    return argon2.verifySync(job.passwordHash, job.password);
  } catch {
    return false;
  }
}
