import path from 'node:path';

/** Where the server under test keeps its data; playwright.config.ts exports it before the run. */
export function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run the suite through playwright.config.ts');
  return dir;
}

export const outboxDir = () => path.join(dataDir(), 'outbox');

/** A short unique suffix so every test's users and books are its own in the shared database. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}
