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
  const res = await fetch(`${baseUrl}/api/auth/signin`, {
    method: 'POST',
    signal,
    headers: {
      ...BROWSER_HEADERS,
      'content-type': 'application/json',
      origin: baseUrl,
      'sec-fetch-site': 'same-origin',
    },
    body: JSON.stringify(credentials),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  if (!res.ok || cookie === '')
    return { error: `sign-in answered ${res.status}: ${(await res.text()).slice(0, 200)}` };
  await res.arrayBuffer();
  return { cookie };
}
