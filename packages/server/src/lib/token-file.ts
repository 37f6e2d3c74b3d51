import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * A random token kept in a file of DATA_DIR (`file`, in `dataDir`), created once, readable by the
 * server's own user only: of several processes creating it at once, the first one's is kept.
 */
export function loadOrCreateTokenFile(dataDir: string, file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const token = randomBytes(32).toString('base64url');
    try {
      writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
      return token;
    } catch {
      return readFileSync(file, 'utf8').trim(); // another process created it first
    }
  }
}

/** Whether a presented token is the expected one, compared in constant time. */
export function isSameToken(expected: string | Buffer, presented: string | undefined): boolean {
  if (!presented) return false;
  const a = Buffer.isBuffer(expected) ? expected : Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}
