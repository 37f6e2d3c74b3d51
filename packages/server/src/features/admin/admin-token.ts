import path from 'node:path';
import { isSameToken, loadOrCreateTokenFile } from '../../lib/token-file';

/**
 * The token the operations commands present to a running server (decision 004). It lives in DATA_DIR,
 * readable by the server's own user only, so holding it means having access to the data already.
 */
export const adminTokenFile = (dataDir: string) => path.join(dataDir, 'admin-token');

export function loadOrCreateAdminToken(dataDir: string): string {
  return loadOrCreateTokenFile(dataDir, adminTokenFile(dataDir));
}

export function isAdminToken(expected: string, presented: string | undefined): boolean {
  return isSameToken(expected, presented);
}
