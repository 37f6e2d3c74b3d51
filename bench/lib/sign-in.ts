import { BENCH_USER } from '../generate/seed';

/** Signs the bench seller in once through the real route (sign-in is rate limited); the Cookie header, or why not. */
export async function signIn(baseUrl: string): Promise<{ cookie: string } | { error: string }> {
  const res = await fetch(`${baseUrl}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_USER),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  if (!res.ok || cookie === '')
    return { error: `sign-in answered ${res.status}: ${(await res.text()).slice(0, 200)}` };
  return { cookie };
}
