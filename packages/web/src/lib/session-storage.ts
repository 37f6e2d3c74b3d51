import type { CurrentUser } from '@campus-books/common/account.schemas';

/** The single persistent key of the signed-in user (spec: one root key, version 1). */
export const SESSION_STORAGE_KEY = 'campus-books:session';
const SESSION_STORAGE_VERSION = 1;

function isCurrentUser(value: unknown): value is CurrentUser {
  if (typeof value !== 'object' || value === null) return false;
  const user = value as Record<string, unknown>;
  return typeof user._id === 'string' && typeof user.username === 'string';
}

export function readStoredUser(): CurrentUser | null {
  try {
    const raw = window.localStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { version?: unknown; user?: unknown };
    return parsed.version === SESSION_STORAGE_VERSION && isCurrentUser(parsed.user)
      ? parsed.user
      : null;
  } catch {
    return null;
  }
}

export function writeStoredUser(user: CurrentUser | null): void {
  try {
    if (user) {
      window.localStorage.setItem(
        SESSION_STORAGE_KEY,
        JSON.stringify({ version: SESSION_STORAGE_VERSION, user }),
      );
    } else {
      window.localStorage.removeItem(SESSION_STORAGE_KEY);
    }
  } catch {
    // Storage can be full or blocked (private mode); the session cookie still works.
  }
}
