import { callRoute } from '@campus-books/common/call-route';
import { BENCH_USER } from '../generate/seed';
import { BROWSER_HEADERS } from './load';

/**
 * Signs a student in through the real route, as the web app does (its own Origin on the POST, as a
 * browser sends it): the bench seller by default (sign-in is rate limited, so once); the Cookie
 * header, or why not.
 */
export async function signIn(
  baseUrl: string,
  credentials: { email: string; password: string } = BENCH_USER,
  signal?: AbortSignal,
): Promise<{ cookie: string } | { error: string }> {
  const answer = await callRoute(baseUrl, 'POST /api/auth/signin', {
    body: credentials,
    headers: { ...BROWSER_HEADERS, origin: baseUrl, 'sec-fetch-site': 'same-origin' },
    ...(signal ? { signal } : {}),
  });
  const cookie = answer.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  if (!answer.ok || cookie === '') {
    const why = answer.ok ? 'no cookie' : (answer.error?.message ?? answer.text.slice(0, 200));
    return { error: `sign-in answered ${answer.status}: ${why}` };
  }
  return { cookie };
}
