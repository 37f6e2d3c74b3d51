import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The token the operations commands present to a running server (decision 004). It lives in DATA_DIR,
 * readable by the server's own user only, so holding it means having access to the data already.
 */
export const adminTokenFile = (dataDir: string) => path.join(dataDir, 'admin-token');

export function loadOrCreateAdminToken(dataDir: string): string {
  const file = adminTokenFile(dataDir);
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

export function isAdminToken(expected: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}
